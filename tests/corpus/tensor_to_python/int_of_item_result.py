"""int() of a `.item()` result breaks once, at the .item() (GB0124), not again at int()."""
import torch


@torch.compile
def f(x):
    y = x + 1
    s = int(y.sum().item())  # expect: GM201
    return y * s


def example():
    return f, (torch.randn(4, 8),)
