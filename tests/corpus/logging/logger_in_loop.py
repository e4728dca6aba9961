"""A logger call inside a loop body: dynamo skips the frame (the whole function runs eagerly),
and still reports the call's line."""
import logging

import torch

logger = logging.getLogger(__name__)


@torch.compile
def step(x):
    for i in range(2):
        x = x + i
        logger.debug("step %d", i)  # expect: GM402
    return x


def example():
    return step, (torch.randn(4, 8),)
