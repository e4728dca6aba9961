"""warnings.warn in reorderable_logging_functions: a message alone is deferred; passing a
warning class (UserWarning) is not a tensor, constant or format string, so that call breaks
(GB0296)."""
import warnings

import torch


@torch.compile
def step(x):
    y = x + 1
    warnings.warn("deprecated path")
    y = y * 2
    warnings.warn("deprecated path", UserWarning)  # expect: GM403
    return y


def example():
    return step, (torch.randn(4, 8),)
