"""A tensor branch inside `with torch.set_grad_enabled(False):`: resumable, reported at the
`if`."""
import torch


@torch.compile
def step(x):
    with torch.set_grad_enabled(False):
        y = x * 2
        if y.sum() > 0:  # expect: GM101
            y = y - 1
    return y + 1


def example():
    return step, (torch.randn(4, 8),)
