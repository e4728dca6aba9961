"""`if mask.any():` and `if (x > 0).all():` both branch on tensor values."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        mask = x > 2.0
        if mask.any():  # expect: GM101
            x = x.clamp(max=2.0)
        x = x + 1
        if (x > -10).all():  # expect: GM101
            x = x * 0.5
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
