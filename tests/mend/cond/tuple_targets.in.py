# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def halves(h: torch.Tensor):
    if h.sum() > 0:
        a, b = h.chunk(2, dim=-1)
    else:
        b, a = h.chunk(2, dim=-1)
    return a - b


def example():
    return halves, (torch.randn(3, 4),)
