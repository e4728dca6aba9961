# mend-applicability: safe
import torch


@torch.compile
def fill(x: torch.Tensor):
    out = torch.zeros_like(x)
    if x.sum() > 0:
        out.copy_(x * 2)
    else:
        out.copy_(-x)
    return out + 1


def example():
    return fill, (torch.randn(4),)
