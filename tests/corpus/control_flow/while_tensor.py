"""`while` on a tensor value: dynamo breaks at the loop test (reported twice, same line)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x.abs() + 4.0
        while x.norm() > 1.0:  # expect: GM101
            x = x / 2
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
