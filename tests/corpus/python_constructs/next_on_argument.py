"""`next()` on an iterator passed in breaks (GB4347); on one made with iter() inside, it does
not."""
import torch


@torch.compile
def f(t, it, xs):
    t = t + 1
    v = next(it)  # expect: GM603
    own = iter(xs)
    w = next(own)
    return t * v * w


def example():
    return f, (torch.randn(4), iter([1.0, 2.0]), [3.0, 4.0])
