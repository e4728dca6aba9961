# mend-declined: only one branch returns
import torch


@torch.compile
def early(x: torch.Tensor):
    h = x * 2
    if h.sum() > 0:
        return h * 2
    else:
        h = h + 1
    return h * 3


def example():
    return early, (torch.randn(4),)
