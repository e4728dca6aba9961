"""`x.sum() > 0 and self.training`: the tensor operand comes first and is always evaluated,
so it breaks even in eval mode (contrast `self.training and x.sum() > 0`)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        if x.sum() > 0 and self.training:  # expect: GM101
            x = x - 1
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
