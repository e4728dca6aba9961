"""logger.info on a module-level logging.getLogger(__name__): GB0291 at the call."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        logger.info("forward with %d rows", x.shape[0])  # expect: GM402
        return y * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
