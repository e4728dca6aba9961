"""A helper that prints, called inside a user context manager: the break is reported in the
helper; dynamo cannot resume under the context manager and skips the frame."""
import contextlib

import torch
from torch import nn


@contextlib.contextmanager
def section(name):
    yield name


def trace_value(t):
    print("value", t.shape)  # expect: GM401
    return t


class Model(nn.Module):
    def forward(self, x):
        x = x + 1
        with section("body"):
            x = trace_value(x) * 2
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
