# mend-applicability: safe
import torch


@torch.compile
def damp(x: torch.Tensor, b: torch.Tensor):
    a = x * 2
    gm_cond = torch.logical_or(a.sum() > 0, b.sum() > 3)
    a = torch.where(gm_cond, a - 1, a)
    b = torch.where(gm_cond, b * 0.5, b)
    return a + b


def example():
    return damp, (torch.randn(4), torch.randn(4))
