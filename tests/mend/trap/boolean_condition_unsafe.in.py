# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def check_range(x):
    if not ((x >= 0).all() and (x <= 1).all()):
        raise ValueError("values must lie in [0, 1]")
    return x * 2


def example():
    return check_range, (torch.rand(4),)
