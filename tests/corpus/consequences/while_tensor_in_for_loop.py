"""A `while` on a tensor nested in a `for` over range: the frame is skipped; the break is at
the `while` test."""
import torch


@torch.compile
def step(x):
    x = x.abs() + 2
    for _ in range(2):
        while x.max() > 1:  # expect: GM101
            x = x / 2
        x = x + 1
    return x


def example():
    return step, (torch.randn(4, 8),)
