"""`not` on a tensor in an `if`, and a static test `and` a tensor test."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x - 0.5
        if not x.any():  # expect: GM101
            x = x + 1
        if x.shape[0] > 0 and x.sum() > 0:  # expect: GM101
            x = x - 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
