"""torch.nonzero in a helper called from forward: reported at the helper's line."""
import torch
from torch import nn


def active_positions(mask):
    return torch.nonzero(mask)  # expect: GM301


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        pos = active_positions(x > 0)
        return x.sum() + pos.sum()


def example():
    return Model().eval(), (torch.randn(4, 8),)
