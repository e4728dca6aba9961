"""Layer dropout as model code writes it: `self.training and p > 0 and random() < p`. In eval
mode `self.training` is False at trace time, so Python's `and` never calls `random()` and
nothing breaks; a value-level `and` (`keep = self.training and random() < p`) neither."""
from random import random

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, layer_dropout=0.5):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])
        self.layer_dropout = layer_dropout

    def forward(self, x):
        for layer in self.layers:
            if self.training and self.layer_dropout > 0.0 and random() < self.layer_dropout:
                continue
            x = layer(x)
        skip = self.training and random() < self.layer_dropout
        return x if skip else x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
