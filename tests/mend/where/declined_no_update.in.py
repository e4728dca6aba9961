# mend-declined: updates no tensor
import torch


@torch.compile
def probe(x: torch.Tensor):
    if x.sum() > 0:
        tmp = x * 2
    return x + 1


def example():
    return probe, (torch.randn(4),)
