# mend-declined: not a tensor bound before it
import torch


@torch.compile
def scaled(x: torch.Tensor):
    scale = 1.0
    if x.sum() > 0:
        scale = 2.0
    return x * scale


def example():
    return scaled, (torch.randn(4),)
