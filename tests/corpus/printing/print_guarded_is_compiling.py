"""print() behind `if not torch.compiler.is_compiling():` is dead code under compile."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        if not torch.compiler.is_compiling():
            print("eager only", x.sum())
        if torch.compiler.is_compiling():
            x = x + 1
        else:
            print("also eager only")
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
