"""`assert <tensor>, <non-string message>` branches on the tensor (GB0170); an f-string message
is not a constant either. A shape assert with any message, and a tensor assert with a plain or
concatenated string message or none, do not break."""
import torch


@torch.compile
def f(t):
    t = t + 1
    assert (t > -100).all(), t.shape  # expect: GM101
    t = t * 2
    assert (t > -200).all(), f"bad {t.shape}"  # expect: GM101
    t = t - 1
    assert (t > -300).all(), "bad " "input"
    assert (t > -300).all()
    assert t.shape[0] == 4, t.shape
    return t * 2


def example():
    return f, (torch.randn(4),)
