# mend-declined: an operation with effects
import torch


@torch.compile
def bump(x: torch.Tensor):
    h = x * 1
    if h.sum() > 0:
        y = h.add_(1)
    else:
        y = h * 2
    return y


def example():
    return bump, (torch.randn(4),)
