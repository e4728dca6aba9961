"""Branches on plain Python attributes set in __init__ are static: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, use_residual=True, scale=0.5, mode="gelu"):
        super().__init__()
        self.use_residual = use_residual
        self.scale = scale
        self.mode = mode
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        h = self.proj(x)
        if self.mode == "gelu":
            h = torch.nn.functional.gelu(h)
        if self.scale != 1.0:
            h = h * self.scale
        if self.use_residual:
            h = h + x
        return h


def example():
    return Model().eval(), (torch.randn(4, 8),)
