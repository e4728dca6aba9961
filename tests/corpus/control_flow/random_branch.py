"""Python `random` values inside a region are drawn at run time and fed to the graph as
inputs, so *using* them is fine but *branching* on them is data-dependent: dynamo 2.13
reports "Data-dependent branching" (GB0170) on each such `if`.
(`random.random()` itself is not traceable on torch 2.13 / CPython 3.11: it breaks at the
call with "Attempted to call function marked as skipped", GB0007; kept out of this case.)"""
import random

import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * random.uniform(0.5, 1.5)
        if random.uniform(0.0, 1.0) < 2.0:  # expect: GM101
            x = x + 1
        if random.randint(0, 3) >= 0:  # expect: GM101
            x = x - 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
