# mend-applicability: safe
import torch


@torch.compile
def shift(x: torch.Tensor):
    y = torch.where(x.max() > 1, x * 2, x + 1)
    return y.sum(0)


def example():
    return shift, (torch.randn(5, 2),)
