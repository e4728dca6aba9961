"""Shapes, dims, sizes, numel and len are static at trace time: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        if x.dim() == 2:
            x = x.unsqueeze(0)
        batch, length, dim = x.shape
        if x.shape[-1] == 8:
            x = x * 2
        if x.size(0) > 1 and length > 2:
            x = x + 1
        n = x.numel()
        if n % 2 == 0:
            x = x - 1
        if len(x) >= 1:
            x = x.reshape(batch, length, dim)
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
