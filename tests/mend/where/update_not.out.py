# mend-applicability: safe
import torch


@torch.compile
def bound(x: torch.Tensor):
    y = x + 1
    y = torch.where(torch.logical_not(y.abs().max() < 2), torch.clamp(y, min=-2.0, max=2.0), y)
    return y * 3


def example():
    return bound, (torch.randn(6) * 3,)
