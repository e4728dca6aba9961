"""Reading x[x > 0] is boolean-mask indexing (GB0036); assigning through the mask is an
index_put that traces, and integer indexing is static: no break there."""
import torch


@torch.compile
def step(x: torch.Tensor):
    y = x.relu()
    y[y > 1] = 1.0
    first = y[0]
    pos = y[y > 0.5]  # expect: GM301
    return pos.sum() + first.sum()


def example():
    return step, (torch.randn(4, 8),)
