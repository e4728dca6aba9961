# mend-declined: elif chain is too long
import torch


@torch.compile
def bands(x: torch.Tensor):
    if x.sum() > 8:
        y = x * 8
    elif x.sum() > 7:
        y = x * 7
    elif x.sum() > 6:
        y = x * 6
    elif x.sum() > 5:
        y = x * 5
    elif x.sum() > 4:
        y = x * 4
    elif x.sum() > 3:
        y = x * 3
    elif x.sum() > 2:
        y = x * 2
    elif x.sum() > 1:
        y = x * 1
    elif x.sum() > 0:
        y = x * 0
    else:
        y = -x
    return y


def example():
    return bands, (torch.randn(4),)
