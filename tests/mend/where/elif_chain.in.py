# mend-applicability: safe
import torch


@torch.compile
def tiers(x: torch.Tensor):
    if x.sum() > 1:
        y = x * 2
    elif x.sum() > 0:
        y = x * 3
    else:
        y = -x
    return y


def example():
    return tiers, (torch.randn(4),)
