# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def center(h: torch.Tensor):
    # a branch value that reduces might broadcast to another shape under a select: unsafe
    if h.mean() > 0:
        y = h - h.mean()
    else:
        y = h
    return y * 2


def example():
    return center, (torch.randn(3, 4),)
