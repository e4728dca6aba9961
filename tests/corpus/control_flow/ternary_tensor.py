"""A conditional expression on a tensor value."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = torch.tanh(x)
        y = x * 2 if x.max() > 0.5 else x  # expect: GM101
        return y + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
