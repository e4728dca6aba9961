"""The same cache, ready: `cache.get_length()` returns its tensor `length`, and `length > 0` breaks
(GM101); graphmend's finding says it needs the method to return a tensor. An annotation the code
contradicts (`cache: torch.Tensor`, whose `get_length` torch.Tensor does not have) is not
trusted; a parameter annotated with the class (`other: "Cache"`) takes that class's method."""
import torch
from torch import nn


class Cache:
    def __init__(self, ready):
        self.ready = ready
        self.length = torch.tensor(2)

    def get_length(self):
        if not self.ready:
            return 0
        return self.length


class Model(nn.Module):
    def forward(self, x, cache: torch.Tensor, other: "Cache"):
        length = cache.get_length()
        if length > 0:  # expect: GM101
            x = x[:, :-1]
        if other.get_length() > 1:  # expect: GM101
            x = x + 1
        return x * 2


def example():
    return Model().eval(), (torch.randn(2, 3), Cache(ready=True), Cache(ready=True))
