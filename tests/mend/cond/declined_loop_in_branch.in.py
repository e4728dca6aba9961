# mend-declined: other than assignments
import torch


@torch.compile
def repeat(x: torch.Tensor):
    h = x * 2
    if h.sum() > 0:
        for _ in range(2):
            h = h * 0.5
        y = h
    else:
        y = h + 1
    return y


def example():
    return repeat, (torch.randn(4),)
