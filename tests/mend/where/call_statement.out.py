# mend-applicability: safe
import torch


@torch.compile
def fill(x: torch.Tensor):
    out = torch.zeros_like(x)
    out.copy_(torch.where(x.sum() > 0, x * 2, -x))
    return out + 1


def example():
    return fill, (torch.randn(4),)
