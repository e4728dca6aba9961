# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def check_finite(x):
    y = torch.tanh(x) * 3
    torch._assert_async(torch.isfinite(y).all(), "FloatingPointError")
    return y


def example():
    return check_finite, (torch.randn(4),)
