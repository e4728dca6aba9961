# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def relative(x: torch.Tensor):
    # a Python number divided by a tensor runs as reciprocal * number: rounding may differ
    peak = x.abs().max().detach()
    return peak / x


def example():
    return relative, (torch.randn(5),)
