# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def weighted(x: torch.Tensor, weights: torch.Tensor):
    total = weights.sum().detach()
    y = x * total
    return y + 2.0 * total * x


def example():
    return weighted, (torch.randn(3, 5), torch.rand(5))
