"""`if x.sum().item() > 0:` breaks at `.item()` (GB0124); the comparison and the `if` then run
on a Python number in the resumed code, so there is no separate branch break."""
import torch


@torch.compile
def step(x):
    y = x * 2
    if y.sum().item() > 0:  # expect: GM201
        y = y - 1
    return y


def example():
    return step, (torch.randn(4, 8),)
