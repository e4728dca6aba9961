# mend-declined: the masked result is used other than by sum()
import torch


@torch.compile
def selected(x: torch.Tensor):
    kept = x[x > 0]
    return kept * 2


def example():
    return selected, (torch.randn(10),)
