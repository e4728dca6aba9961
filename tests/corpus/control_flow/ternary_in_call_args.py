"""Conditional expressions nested in call arguments: one tests a Python flag (folded), one tests
a tensor (breaks on the line of the call)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, use_gelu=True):
        super().__init__()
        self.use_gelu = use_gelu

    def forward(self, x):
        x = torch.relu(x) if not self.use_gelu else torch.nn.functional.gelu(x)
        y = torch.cat([x, x * 2 if x.shape[0] > 2 else x], dim=0)
        z = torch.tanh(y if y.mean() > 0 else -y)  # expect: GM101
        return z


def example():
    return Model().eval(), (torch.randn(4, 8),)
