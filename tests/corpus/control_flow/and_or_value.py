"""`and`/`or` used as a value with a tensor left operand branch on its truthiness (GB0170)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, a, b):
        y = a.any() and b  # expect: GM101
        z = (a > 0).all() or b  # expect: GM101
        return y + z


def example():
    return Model().eval(), (torch.randn(4), torch.randn(4))
