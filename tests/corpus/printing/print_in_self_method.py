"""print() in a method that forward calls as self.method(): traced too, so the break is
reported inside the method. A method nothing compiled calls is not traced."""
import torch
from torch import nn


class Model(nn.Module):
    def debug(self, t):
        print("debug", t.sum())  # expect: GM401
        return t

    def unused(self, t):
        print("never traced", t)
        return t

    def forward(self, x):
        x = x + 1
        x = self.debug(x)
        return x * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
