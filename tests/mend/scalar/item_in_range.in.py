# mend-declined: it is passed to range(), int(), bool() or len()
import torch


@torch.compile
def refine(x: torch.Tensor, steps: torch.Tensor):
    n = steps.sum().item()
    for _ in range(n):
        x = x * 0.5
    return x


def example():
    return refine, (torch.randn(3), torch.tensor([1, 1]))
