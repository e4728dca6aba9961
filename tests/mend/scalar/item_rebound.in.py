# mend-declined: bound more than once
import torch


@torch.compile
def accumulate(x, y):
    s = x.sum().item()
    s = s + 1
    return y * s


def example():
    return accumulate, (torch.randn(3), torch.randn(3))
