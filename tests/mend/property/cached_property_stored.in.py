# mend-declined: stores or deletes the attribute
# A cached property the class also assigns: a plain property has no setter, so no mend is offered.
from functools import cached_property

import torch
from torch import nn


class Scaled(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    @cached_property
    def scale(self):
        return self.lin.in_features ** -0.5

    def reset(self):
        self.scale = 1.0

    def forward(self, x):
        return self.lin(x) * self.scale


def example():
    return Scaled(), (torch.randn(2, 4),)
