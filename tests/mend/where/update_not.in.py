# mend-applicability: safe
import torch


@torch.compile
def bound(x: torch.Tensor):
    y = x + 1
    if not (y.abs().max() < 2):
        y = torch.clamp(y, min=-2.0, max=2.0)
    return y * 3


def example():
    return bound, (torch.randn(6) * 3,)
