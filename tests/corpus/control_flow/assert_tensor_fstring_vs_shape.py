"""Asserts: a tensor test with a string message is rewritten to torch._assert_async (no break);
isinstance and None asserts fold; a tensor assert with a `%`-formatted message is not a
constant string and branches."""
import torch


@torch.compile
def step(x, bias=None):
    assert isinstance(x, torch.Tensor), "x must be a tensor"
    assert bias is None, "no bias"
    assert torch.isfinite(x).all(), "non-finite input"
    x = x * 2
    assert (x.abs() < 1e6).all(), "overflow in %s" % "step"  # expect: GM101
    return x + 1


def example():
    return step, (torch.randn(4, 8),)
