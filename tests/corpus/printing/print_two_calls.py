"""Two prints: two breaks, each on its own line."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x + 1
        print("a")  # expect: GM401
        x = x * 2
        print("b", x.sum())  # expect: GM401
        return x - 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
