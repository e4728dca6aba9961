# mend-declined: belongs to an elif
import torch


@torch.compile
def tiers(x: torch.Tensor):
    y = x
    if x.sum() > 1:
        y = x * 2
    elif x.sum() > 0:
        y = x * 3
    return y


def example():
    return tiers, (torch.randn(4),)
