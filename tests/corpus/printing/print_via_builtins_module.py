"""print reached through the builtins module (`builtins.print(...)`) is the same builtin and
breaks."""
import builtins

import torch


@torch.compile
def step(x):
    y = x * 2
    builtins.print("value", y.shape)  # expect: GM401
    return y + 1


def example():
    return step, (torch.randn(4, 8),)
