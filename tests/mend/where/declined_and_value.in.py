# mend-declined: tested outside an if statement
import torch


@torch.compile
def first(x: torch.Tensor, y: torch.Tensor):
    z = (x.sum() > 0) and y
    return z * 2


def example():
    return first, (torch.randn(4), torch.randn(4))
