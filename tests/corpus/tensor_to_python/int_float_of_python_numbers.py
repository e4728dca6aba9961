"""int() of a shape entry, float() of Python numbers, bool() of dim(), list() of a shape and
math on numel(): all static: no break."""
import math

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, heads=2):
        super().__init__()
        self.heads = heads

    def forward(self, x):
        n = int(x.shape[0])
        d = float(x.shape[-1])
        scale = 1.0 / math.sqrt(d)
        h = float(self.heads)
        flag = bool(x.dim())
        dims = list(x.shape)
        total = int(x.numel() / n)
        y = x.reshape(dims[0], -1) * scale * h
        if flag:
            y = y + total
        return y


def example():
    return Model().eval(), (torch.randn(4, 8),)
