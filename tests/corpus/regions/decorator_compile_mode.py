"""@torch.compile(mode=...) with a keyword argument only."""
import torch


@torch.compile(mode="default")
def step(x):
    x = x + 1
    if x.sum() != 0:  # expect: GM101
        x = x - x.mean()
    return x


def example():
    return step, (torch.randn(4, 8),)
