"""A forward decorated with @torch.no_grad(): the decorator is traced; a tensor branch inside
still breaks at the `if`."""
import torch
from torch import nn


class Model(nn.Module):
    @torch.no_grad()
    def forward(self, x):
        x = x * 2
        if x.mean() > 0:  # expect: GM101
            x = x - 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
