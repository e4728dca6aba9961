# mend-declined: does nothing when taken
import torch


@torch.compile
def skip(h: torch.Tensor):
    if h.sum() > 0:
        pass
    else:
        h = h * 2
    return h


def example():
    return skip, (torch.randn(4),)
