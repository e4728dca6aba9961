# mend-applicability: safe
import torch


@torch.compile
def gated(x: torch.Tensor, cache):
    # `ready` is False when cache is None, else a tensor: the select's condition takes both
    ready = cache is not None and x.sum() > 0
    if ready:
        y = x * 2
    else:
        y = x - 1
    return y


def example():
    return gated, (torch.randn(4), torch.zeros(1))
