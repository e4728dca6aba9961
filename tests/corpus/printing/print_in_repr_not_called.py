"""print() in extra_repr and in a describe() method that forward never calls: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def extra_repr(self):
        print("building repr")
        return "custom"

    def describe(self):
        print(self)

    def forward(self, x):
        h = self.proj(x)
        return h * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
