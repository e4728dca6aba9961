"""A Module subclass of a Module subclass in the same file: both forwards are compiled
(the child calls super().forward)."""
import torch
from torch import nn


class Base(nn.Module):
    def forward(self, x):
        x = x * 2
        if x.max() > 3:  # expect: GM101
            x = x / 2
        return x


class Child(Base):
    def forward(self, x):
        x = super().forward(x)
        print("child")  # expect: GM401
        return x + 1


def example():
    return Child().eval(), (torch.randn(4, 8),)
