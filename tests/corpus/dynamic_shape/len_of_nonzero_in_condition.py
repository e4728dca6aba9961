"""`if len(x.nonzero()) > 0:` breaks at nonzero (GB0036); the length of the resulting tensor is
then a plain int, so the `if` adds no break."""
import torch


@torch.compile
def step(x):
    y = x.relu()
    if len(y.nonzero()) > 0:  # expect: GM301
        y = y * 2
    return y


def example():
    return step, (torch.randn(4, 8),)
