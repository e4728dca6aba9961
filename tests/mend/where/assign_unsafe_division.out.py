# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def normalize(x: torch.Tensor):
    total = x.abs().sum()
    y = torch.where(total > 1, x / total, x)
    return y * 2


def example():
    return normalize, (torch.randn(5),)
