"""A chained comparison `0 < t < 1` on a tensor branches on the first comparison's truthiness
before the second is made; the same chain on a shape folds."""
import torch


@torch.compile
def step(x):
    y = x.sigmoid()
    if 0 < x.shape[0] < 10:
        y = y * 2
    if 0 < y.mean() < 10:  # expect: GM101
        y = y - 1
    return y


def example():
    return step, (torch.randn(4, 8),)
