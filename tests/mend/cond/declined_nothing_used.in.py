# mend-declined: bind nothing the code after the if reads
import torch


@torch.compile
def unused(x: torch.Tensor):
    if x.sum() > 0:
        t = x * 2
    else:
        u = x * 3
    return x + 1


def example():
    return unused, (torch.randn(4),)
