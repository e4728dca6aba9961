"""A static shape test in `if`, a tensor test in `elif`: only the `elif` breaks."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * 3
        if x.shape[0] > 100:
            x = x[:100]
        elif x.mean() > 0:  # expect: GM101
            x = x - 1
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
