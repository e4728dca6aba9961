"""`nn.Parameter(...)` constructed in compiled code breaks (GB0264); one made in __init__ does
not."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(4))

    def forward(self, t):
        t = t * self.w
        p = nn.Parameter(torch.ones(4))  # expect: GM602
        return t * p


def example():
    return Model().eval(), (torch.randn(4),)
