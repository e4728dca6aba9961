"""A logger stored as a class attribute (`logger = logging.getLogger(__name__)` in the class body)
and called through self: GB0291 at the call."""
import logging

import torch
from torch import nn


class Model(nn.Module):
    logger = logging.getLogger(__name__)

    def forward(self, x):
        x = x * 2
        self.logger.info("forward %s", x.shape)  # expect: GM402
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
