"""`self.counter` is made a `Counter()` in __init__, and `Counter.length` returns `self.total`, a
tensor its __init__ sets: `self.counter.length()` is a tensor, so testing it breaks (GM101),
whatever the method's name (no class outside the file is involved)."""
import torch
from torch import nn


class Counter:
    def __init__(self):
        self.total = torch.tensor(5)

    def length(self):
        return self.total


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.counter = Counter()

    def forward(self, x):
        n = self.counter.length()
        if n > 3:  # expect: GM101
            return x + 1
        return x - 1


def example():
    return Model().eval(), (torch.randn(2, 3),)
