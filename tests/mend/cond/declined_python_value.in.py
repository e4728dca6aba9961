# mend-declined: gives a Python value
import torch


@torch.compile
def mode(x: torch.Tensor):
    y = x * 1
    if x.sum() > 0:
        y = x * 2
        scale = 2.0
    else:
        scale = 1.0
    return y * scale


def example():
    return mode, (torch.randn(4),)
