"""Branches on NumPy values: dynamo traces NumPy arrays and scalars as tensors, so a jump on
one breaks (GB0170), whether the value is made in forward, at module level, in __init__, or
passed to the constructor by the module that builds this one (diffusers' HunyuanImage refiner
VAE: `add_temporal_downsample = i >= np.log2(ratio)` handed down to a block that tests it).
A Python bool made with bool(...) folds, and so does a literal passed to the constructor."""
import numpy as np
import torch
from torch import nn

DEEP = np.log2(8) > 2


class Block(nn.Module):
    def __init__(self, upsample, plain=True):
        super().__init__()
        self.upsample = upsample
        self.plain = plain
        self.wide = np.float32(2.0) > 1
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        x = self.proj(x)
        r = 2 if self.upsample else 1  # expect: GM101
        if self.plain:
            x = x + 1
        if self.wide:  # expect: GM101
            x = x * 2
        return x * r


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        upsample = 3 >= np.log2(8)
        self.blocks = nn.ModuleList([Block(upsample), Block(False, plain=bool(DEEP))])

    def forward(self, x):
        half = np.log2(4) > 1
        if half:  # expect: GM101
            x = x / 2
        if DEEP:  # expect: GM101
            x = x * 2
        for block in self.blocks:
            x = block(x)
        return x


def example():
    return Net().eval(), (torch.randn(2, 4),)
