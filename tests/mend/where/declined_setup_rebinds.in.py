# mend-declined: other than assignments
import torch


@torch.compile
def shift(x: torch.Tensor):
    out = torch.zeros_like(x)
    t = x + 1
    if x.mean() > 0:
        t = x * 2
        out.copy_(t)
    else:
        out.copy_(t - 1)
    return out


def example():
    return shift, (torch.randn(4),)
