"""ignore_logging_functions with logging.Logger.info: dynamo drops logger.info(...) on any
logger while tracing. Logger.warning is not in the set and still breaks (GB0291)."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        logger.info("forward with %d rows", x.shape[0])
        y = y * 2
        logger.warning("about to finish")  # expect: GM402
        return y + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
