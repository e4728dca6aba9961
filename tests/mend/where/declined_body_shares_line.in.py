# mend-declined: shares a line of the if's body
import torch


@torch.compile
def damp(x: torch.Tensor, b: torch.Tensor):
    a = x * 2
    if x.dim() == 1 and a.sum() > 0: a = a - 1; b = b * 0.5  # noqa: E701, E702
    return a + b


def example():
    return damp, (torch.randn(4), torch.randn(4))
