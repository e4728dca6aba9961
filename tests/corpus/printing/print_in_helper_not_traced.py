"""Helpers with print() that compiled code never calls: one only from __init__, one never,
one only from module-level code. None of them is traced, so nothing breaks."""
import torch
from torch import nn


def announce(name):
    print("building", name)
    return name


def never_called(t):
    print("unused", t)
    return t


def at_import(t):
    print("import time", t)
    return t


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.name = announce("model")
        self.linear = nn.Linear(8, 8)

    def forward(self, x):
        return self.linear(x) + 1


SCALE = at_import(2)


def example():
    return Model().eval(), (torch.randn(4, 8),)
