"""`is None` / `is not None` checks on optional arguments are static: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, mask=None, bias=None):
        if mask is not None:
            x = x.masked_fill(mask, 0.0)
        if bias is None:
            bias = torch.zeros_like(x)
        return x + bias


def example():
    x = torch.randn(4, 8)
    return Model().eval(), (x, x > 0)
