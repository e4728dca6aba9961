"""try/except and a user context manager around traceable code: no break."""
import contextlib

import torch
from torch import nn


@contextlib.contextmanager
def scope():
    yield


class Model(nn.Module):
    def forward(self, x):
        try:
            x = x * 2
        except ValueError:
            x = x + 1
        with scope():
            x = x - 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
