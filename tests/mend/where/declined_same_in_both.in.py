# mend-declined: nothing to select
import torch


@torch.compile
def same(x: torch.Tensor):
    out = torch.zeros_like(x)
    if x.sum() > 0:
        out.copy_(x)
    else:
        out.copy_(x)
    return out


def example():
    return same, (torch.randn(4),)
