"""A method of the module decorated with torch.compiler.disable, called on self from forward,
breaks at the call (torch 2.13 reports GB0099 for a method)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)

    @torch.compiler.disable
    def record(self, t):
        return t.detach().clone()

    def forward(self, x):
        y = self.lin(x)
        snap = self.record(y)  # expect: GM507
        return y.relu() + snap


def example():
    return Model().eval(), (torch.randn(4, 8),)
