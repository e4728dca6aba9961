"""Tensor.tolist(): GB0109 on a float tensor, GB0033 on an integer tensor (torch 2.13)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        row = x.mean(dim=1).tolist()  # expect: GM202
        y = x * len(row)
        idx = y.argmax(dim=1).tolist()  # expect: GM202
        return y + len(idx)


def example():
    return Model().eval(), (torch.randn(4, 8),)
