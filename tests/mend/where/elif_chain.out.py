# mend-applicability: safe
import torch


@torch.compile
def tiers(x: torch.Tensor):
    y = torch.where(x.sum() > 1, x * 2, torch.where(x.sum() > 0, x * 3, -x))
    return y


def example():
    return tiers, (torch.randn(4),)
