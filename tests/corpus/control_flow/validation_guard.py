"""`if not <tensor condition>: raise` is a validation guard (GB0170, reported as GM103); the same
guard on a shape does not break."""
import torch


@torch.compile
def f(t):
    t = t + 1
    if not torch.isfinite(t).all():  # expect: GM103
        raise ValueError("non-finite input")
    if t.shape[0] != 4:
        raise ValueError("bad shape")
    if not t.shape[0] == 4:
        raise ValueError("bad shape")
    return t * 2


def example():
    return f, (torch.randn(4),)
