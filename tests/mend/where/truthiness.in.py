# mend-applicability: safe
import torch


@torch.compile
def flagged(x: torch.Tensor):
    big = (x > 1).sum()
    if big:
        y = x.clamp(max=1.0)
    else:
        y = x * 2
    return y


def example():
    return flagged, (torch.randn(6) * 2,)
