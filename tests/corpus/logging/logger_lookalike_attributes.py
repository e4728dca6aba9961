"""Attributes that are not loggers: a class attribute and an __init__ attribute holding a plain
Python object with a `warning` method (dynamo inlines it), a float class attribute, and
`logging.getLogger()` without a name (the root logger, returned without a registry lookup).
Nothing breaks."""
import logging

import torch
from torch import nn


class Tracker:
    def __init__(self):
        self.items = []

    def warning(self, msg):
        self.items.append(msg)


class Model(nn.Module):
    tracker = Tracker()
    scale = 2.0

    def __init__(self):
        super().__init__()
        self.rec = Tracker()
        self.log = Tracker()

    def forward(self, x):
        x = x * self.scale
        self.tracker.warning("a")
        self.rec.warning("b")
        self.log.warning("c")
        root = logging.getLogger()
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
