"""Tensor.item() on a reduction in forward: GB0124 at the .item() line."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x * 2
        scale = y.abs().max().item()  # expect: GM201
        return y / scale


def example():
    return Model().eval(), (torch.randn(4, 8),)
