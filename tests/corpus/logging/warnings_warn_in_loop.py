"""warnings.warn inside a for loop: the frame is skipped (graph break in loop); the call's line
is still reported."""
import warnings

import torch


@torch.compile
def step(x):
    for i in range(2):
        x = x + i
        if i == 1:
            warnings.warn("second iteration")  # expect: GM403
    return x


def example():
    return step, (torch.randn(4, 8),)
