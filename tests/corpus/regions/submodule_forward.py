"""A break in a submodule's forward is reported there (innermost user frame)."""
import torch
from torch import nn


class Inner(nn.Module):
    def forward(self, x):
        x = x + 1
        if x.mean() > 0:  # expect: GM101
            x = x * 0.5
        return x


class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        x = self.proj(x)
        x = self.inner(x)
        return x - 1


def example():
    return Outer().eval(), (torch.randn(4, 8),)
