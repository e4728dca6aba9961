# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def largest_negative(x: torch.Tensor):
    return x[x < 0].max()


def example():
    return largest_negative, (torch.randn(10),)
