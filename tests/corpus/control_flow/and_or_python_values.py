"""`and`/`or` on Python values (shapes, None checks, flags) are folded: no break."""
import torch


@torch.compile
def f(x, mask=None, scale=True):
    n = x.shape[0] > 2 and x.dim() == 1
    m = mask or None
    s = scale and 2.0
    if mask is None and n:
        x = x * s
    return x + 1 if m is None else x


def example():
    return f, (torch.randn(4),)
