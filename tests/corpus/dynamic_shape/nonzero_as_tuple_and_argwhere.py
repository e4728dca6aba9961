"""x[mask.nonzero(as_tuple=True)] and torch.argwhere: each is a dynamic-shape op (GB0036)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        mask = x > 0
        rows, cols = mask.nonzero(as_tuple=True)  # expect: GM301
        picked = x[rows, cols]
        where = torch.argwhere(x < 0)  # expect: GM301
        return picked.sum() + where.sum()


def example():
    return Model().eval(), (torch.randn(4, 8),)
