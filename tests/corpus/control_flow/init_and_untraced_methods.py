"""Tensor branches in __init__ and in a method forward never calls: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        w = torch.randn(8, 8)
        if w.abs().max() > 100:
            w = w.clamp(-100, 100)
        self.weight = nn.Parameter(w)

    def reset_parameters(self):
        if self.weight.sum() > 0:
            self.weight.data.zero_()

    def forward(self, x):
        return x @ self.weight


def example():
    return Model().eval(), (torch.randn(4, 8),)
