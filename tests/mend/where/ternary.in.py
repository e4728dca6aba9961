# mend-applicability: safe
import torch


@torch.compile
def shift(x: torch.Tensor):
    y = x * 2 if x.max() > 1 else x + 1
    return y.sum(0)


def example():
    return shift, (torch.randn(5, 2),)
