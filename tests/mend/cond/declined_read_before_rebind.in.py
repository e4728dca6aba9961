# mend-declined: reads a name before rebinding it
import torch


@torch.compile
def widen(h: torch.Tensor):
    n = h.shape[0]
    if h.sum() > 0:
        n = n + 1
        y = h * n
    else:
        y = h
    return y


def example():
    return widen, (torch.randn(4),)
