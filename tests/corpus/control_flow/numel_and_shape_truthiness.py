"""`if t.numel():` and `if t.shape[0]:` test Python ints (no break); `if t.shape[0] and u.sum():`
reaches the tensor operand and breaks on it."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, y):
        if x.numel():
            x = x + 1
        if x.shape[0]:
            x = x * 2
        if x.shape[0] and y.sum():  # expect: GM101
            x = x - y
        return x


def example():
    return Model().eval(), (torch.randn(4, 8), torch.randn(4, 8))
