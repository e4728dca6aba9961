"""Logging in __init__ is outside the region (no break); `logging.getLogger(name).warning(...)`
inline in forward breaks at the call."""
import logging

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        logging.getLogger(__name__).info("building model")
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        x = self.proj(x)
        logging.getLogger("model.forward").warning("slow")  # expect: GM402
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
