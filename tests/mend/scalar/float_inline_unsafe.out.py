# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def shift(x: torch.Tensor, offset: torch.Tensor):
    return x - offset.mean().detach()  # center on the offset's mean


def example():
    return shift, (torch.randn(2, 3), torch.randn(7))
