# mend-applicability: safe
import torch


@torch.compile
def damp(x: torch.Tensor, b: torch.Tensor):
    a = x * 2
    if a.sum() > 0 or b.sum() > 3:
        a = a - 1
        b = b * 0.5
    return a + b


def example():
    return damp, (torch.randn(4), torch.randn(4))
