"""`if not <tensor>:` whose body does not raise, or that has an else, is a plain branch (GM101)."""
import torch


@torch.compile
def f(t):
    t = t + 1
    if not (t > 0).all():  # expect: GM101
        t = t.abs()
    t = t * 2
    if not (t > -100).all():  # expect: GM101
        raise ValueError("bad")
    else:
        t = t - 1
    return t


def example():
    return f, (torch.randn(4),)
