"""`self.layers` holds `Layer()` instances (a list display in __init__), and `Layer.used` returns
`self.filled`, a tensor on every path: `self.layers[0].used()` is a tensor, and `used == 0`
breaks (GM101). `Layer.size` returns a shape (an int), so testing it folds."""
import torch
from torch import nn


class Layer:
    def __init__(self):
        self.filled = torch.zeros((), dtype=torch.long)
        self.keys = torch.zeros(1, 2, 4)

    def used(self):
        return self.filled

    def size(self):
        return self.keys.shape[-1]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Layer(), Layer()]

    def forward(self, x):
        if self.layers[0].size() == 4:
            x = x * 2
        used = self.layers[0].used()
        if used == 0:  # expect: GM101
            x = x + 1
        return x


def example():
    return Model().eval(), (torch.randn(2, 3),)
