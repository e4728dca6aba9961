"""A tensor branch inside try/finally."""
import torch


@torch.compile
def step(x):
    x = x.sin()
    try:
        if x.sum() > 0:  # expect: GM101
            x = x * 2
    finally:
        x = x + 1
    return x


def example():
    return step, (torch.randn(4, 8),)
