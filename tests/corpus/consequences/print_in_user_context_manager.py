"""print() inside a user context manager (contextlib): dynamo cannot break under it
("Graph break under GenericContextWrappingVariable") and skips the frame."""
import contextlib

import torch
from torch import nn


@contextlib.contextmanager
def scope(name):
    yield name


class Model(nn.Module):
    def forward(self, x):
        x = x + 1
        with scope("block"):
            print("in scope")  # expect: GM401
            x = x * 2
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
