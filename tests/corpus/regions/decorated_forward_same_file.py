"""A decorator of the same file that returns a nested wrapper: the wrapper, and the nested
helper it calls, run under torch.compile with the decorated forward."""
import functools

import torch
from torch import nn


def traced(forward):
    def log_input(x):
        print("input", x.shape)  # expect: GM401
        return x

    @functools.wraps(forward)
    def wrapper(self, x):
        x = log_input(x)
        return forward(self, x)

    return wrapper


class Model(nn.Module):
    @traced
    def forward(self, x):
        return torch.relu(x) + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
