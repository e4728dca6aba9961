"""`while` on a Python counter is unrolled (no break); `while` on a tensor value in the same
function breaks at its test."""
import torch


@torch.compile
def step(x):
    i = 0
    while i < 3:
        x = x + 1
        i += 1
    x = x.abs() + 1
    while x.max() > 0.5:  # expect: GM101
        x = x / 2
    return x


def example():
    return step, (torch.randn(4, 8),)
