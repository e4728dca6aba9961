"""`random` under other spellings: an alias of the module and names imported from it. Branching
on random.uniform()/randint() results is data-dependent on torch 2.13 (GB0170) however the
function is spelled, also through a variable."""
import random as rnd
from random import randint, uniform

import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        if uniform(0.0, 1.0) < 2.0:  # expect: GM101
            x = x + 1
        k = rnd.randint(0, 3)
        x = x * 2
        if k >= 0:  # expect: GM101
            x = x - 1
        if randint(1, 2) > 0:  # expect: GM101
            x = x * 3
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
