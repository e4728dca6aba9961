# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def rescale(x: torch.Tensor):
    peak = x.abs().max().item()
    x = x.to(torch.float64)  # x changes dtype after the peak is read
    return x / peak


def example():
    return rescale, (torch.randn(6),)
