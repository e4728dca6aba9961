# mend-declined: returns nothing
import torch


@torch.compile
def check(x: torch.Tensor):
    y = x * 2
    if y.sum() > 0:
        return
    else:
        return


def example():
    return check, (torch.randn(4),)
