"""@torch.compile(fullgraph=True) without any setting: .item() compiles (fullgraph implies
capture_scalar_outputs on torch >= 2.10) and the logger call raises Unsupported."""
import logging

import torch

logger = logging.getLogger(__name__)


@torch.compile(fullgraph=True)
def step(x):
    s = x.sum().item()
    y = x * s
    logger.info("scaled")  # expect: GM402
    return y


def example():
    return step, (torch.randn(4, 8),)
