"""The deprecated Logger alias logger.warn is a Logger method like the others: GB0291."""
import logging

import torch

logger = logging.getLogger(__name__)


@torch.compile
def step(x):
    x = x + 1
    logger.warn("deprecated alias")  # expect: GM402
    x = x * 2
    return x


def example():
    return step, (torch.randn(4, 8),)
