# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def largest_negative(x: torch.Tensor):
    return torch.where(x < 0, x, float("-inf")).max()


def example():
    return largest_negative, (torch.randn(10),)
