"""Clock calls under `if not torch.compiler.is_compiling():` are dead code under compile, and
clocks outside the region are not traced: no break."""
import time

import torch

START = time.perf_counter()


def report():
    return time.time() - START


@torch.compile
def step(x):
    y = x * 2
    if not torch.compiler.is_compiling():
        START2 = time.perf_counter()
        y = y + START2
    return y + 1


def example():
    return step, (torch.randn(4, 8),)
