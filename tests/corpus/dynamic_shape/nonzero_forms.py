"""torch.nonzero, Tensor.nonzero and torch.argwhere on a tensor: GB0036 at each call."""
import torch


@torch.compile
def step(x: torch.Tensor):
    y = x.relu()
    a = torch.nonzero(y)  # expect: GM301
    b = y.nonzero()  # expect: GM301
    c = torch.argwhere(y)  # expect: GM301
    return a.sum() + b.sum() + c.sum()


def example():
    return step, (torch.randn(4, 8),)
