"""One-argument torch.where(c) returns indices (GB0036); the three-argument form is an
elementwise select that traces: no break."""
import torch


@torch.compile
def step(x: torch.Tensor):
    y = x.relu()
    z = torch.where(y > 0, y, -y)
    idx = torch.where(y > 0)  # expect: GM301
    return z.sum() + idx[0].sum()


def example():
    return step, (torch.randn(4, 8),)
