"""`if logger.isEnabledFor(logging.DEBUG): logger.debug(...)`: isEnabledFor is itself a Logger
method, so the guard breaks at the `if` line; the logger is not enabled for DEBUG, so the
debug call is never reached."""
import logging

import torch

logger = logging.getLogger(__name__)


@torch.compile
def step(x):
    x = x * 2
    if logger.isEnabledFor(logging.DEBUG):  # expect: GM402
        logger.debug("x %s", x.shape)
    return x + 1


def example():
    return step, (torch.randn(4, 8),)
