"""random.random() drawn outside the region (module level, __init__): the region sees a plain
Python float, a constant to dynamo, so branching on it breaks nothing. (Called inside a region,
random.random() breaks at the call itself on torch 2.13, GB0007, not at the branch.)"""
import random

import torch
from torch import nn

THRESHOLD = random.random()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.p = random.random()

    def forward(self, x):
        if self.p <= 1.0:
            x = x + 1
        if THRESHOLD < 2.0:
            x = x * 2
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
