# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def normalize(x: torch.Tensor):
    total = x.abs().sum()
    if total > 1:
        y = x / total
    else:
        y = x
    return y * 2


def example():
    return normalize, (torch.randn(5),)
