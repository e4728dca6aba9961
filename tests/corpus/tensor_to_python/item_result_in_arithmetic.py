"""`.item()` whose result is only used in arithmetic still breaks at the call (GB0124)."""
import torch


@torch.compile
def step(x):
    y = x.softmax(-1)
    peak = y.max().item()  # expect: GM201
    return y * (1.0 / peak) + 2 * peak


def example():
    return step, (torch.randn(4, 8),)
