"""The condition is computed into a local first; the branch is on that tensor."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        peak = torch.max(x)
        too_big = peak > 1.0
        x = x + 1
        if too_big:  # expect: GM101
            x = x / peak
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
