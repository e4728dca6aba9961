"""A logger assigned to self in __init__ (`self.log = logging.getLogger(...)`) and a logger
method bound to a local in forward: each call breaks."""
import logging

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.log = logging.getLogger("model")

    def forward(self, x):
        x = x + 1
        self.log.warning("step")  # expect: GM402
        info = self.log.info
        x = x * 2
        info("done")  # expect: GM402
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
