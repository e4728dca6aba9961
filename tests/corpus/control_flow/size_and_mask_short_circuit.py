"""`x.size(0) > 2 and mask.any()`: the size test is true for a batch of 4, so the mask is tested
and breaks."""
import torch


@torch.compile
def step(x):
    mask = x > 1
    if x.size(0) > 2 and mask.any():  # expect: GM101
        x = x.masked_fill(mask, 1.0)
    return x * 2


def example():
    return step, (torch.randn(4, 8),)
