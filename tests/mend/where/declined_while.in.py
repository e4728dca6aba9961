# mend-declined: a while loop on a tensor
import torch


@torch.compile
def halve(x: torch.Tensor):
    while x.abs().max() > 1:
        x = x / 2
    return x


def example():
    return halve, (torch.randn(4) * 8,)
