# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def mean_above(x: torch.Tensor, threshold: float = 0.1):
    return 1.0 / x[x > threshold].mean()


def example():
    return mean_above, (torch.randn(6, 3),)
