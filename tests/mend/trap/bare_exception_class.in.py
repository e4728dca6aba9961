# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def check_finite(x):
    y = torch.tanh(x) * 3
    if not torch.isfinite(y).all():
        raise FloatingPointError
    return y


def example():
    return check_finite, (torch.randn(4),)
