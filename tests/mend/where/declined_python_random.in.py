# mend-declined: draws from Python's random module
import random

import torch


@torch.compile
def jitter(x: torch.Tensor):
    if random.uniform(0.0, 1.0) < 0.5:
        x = x + 1
    return x


def example():
    return jitter, (torch.randn(4),)
