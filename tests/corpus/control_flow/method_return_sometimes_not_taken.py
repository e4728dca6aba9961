"""`cache.get_length()` on a parameter whose class the call does not show: the one class of the file
that defines `get_length` returns `self.length` (a tensor) when `self.ready`, else 0. Here the
cache is not ready, the method returns 0, `length > 0` is a Python test and nothing breaks;
graphmend says the `if` breaks only when `cache.get_length()` returns a tensor."""
import torch
from torch import nn


class Cache:
    def __init__(self, ready):
        self.ready = ready
        self.length = torch.tensor(2)

    def get_length(self):
        return self.length if self.ready else 0


class Model(nn.Module):
    def forward(self, x, cache):
        length = cache.get_length()
        if length > 0:  # expect-conditional: GM101
            x = x[:, :-1]
        return x * 2


def example():
    return Model().eval(), (torch.randn(2, 3), Cache(ready=False))
