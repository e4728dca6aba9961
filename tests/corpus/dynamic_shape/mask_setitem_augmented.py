"""Writing through a boolean mask: the plain `y[mask] = v` is an index_put that traces; the
augmented `y[mask] += v` first reads y[mask] (aten.nonzero, GB0036) and breaks."""
import torch


@torch.compile
def step(x):
    y = x.clone()
    mask = y < 0
    y[mask] = 0.0
    y[mask] += 1.0  # expect: GM301
    return y * 2


def example():
    return step, (torch.randn(4, 8),)
