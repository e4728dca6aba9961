"""Logger and warnings calls under `if not torch.compiler.is_compiling():` are dead code under
compile: no break."""
import logging
import warnings

import torch

logger = logging.getLogger(__name__)


@torch.compile
def step(x):
    y = x * 2
    if not torch.compiler.is_compiling():
        logger.info("eager only %s", y.shape)
        warnings.warn("eager only")
    return y + 1


def example():
    return step, (torch.randn(4, 8),)
