"""`if` on a reduction of a tensor inside forward: data-dependent branch."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        h = self.proj(x)
        if h.sum() > 0:  # expect: GM101
            h = h * 2
        return h + 1


def example():
    return Model().eval(), (torch.randn(2, 8),)
