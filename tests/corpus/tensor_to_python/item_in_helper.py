"""`.item()` in a helper called from forward: reported at the helper's line."""
import torch
from torch import nn


def max_abs(t):
    return t.abs().max().item()  # expect: GM201


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        m = max_abs(x)
        return x / m


def example():
    return Model().eval(), (torch.randn(4, 8),)
