# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def check_range(x):
    torch._assert_async(torch.logical_and((x >= 0).all(), (x <= 1).all()), "ValueError: values must lie in [0, 1]")
    return x * 2


def example():
    return check_range, (torch.rand(4),)
