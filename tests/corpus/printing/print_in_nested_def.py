"""print() in a function defined inside forward and called there: the break is reported inside
the nested function."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        def report(t):
            print("norm", t.norm())  # expect: GM401
            return t

        x = x * 2
        x = report(x)
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
