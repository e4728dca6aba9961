# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def check_positive(x):
    torch._assert_async((x > 0).all(), "ValueError: expected positive values, got shape {x.shape}")
    return x.log()


def example():
    return check_positive, (torch.rand(4) + 0.1,)
