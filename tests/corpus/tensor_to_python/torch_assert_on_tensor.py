"""torch._assert(cond, "msg") with a tensor condition is not rewritten like an `assert`
statement: it converts the condition to a Python bool (aten._local_scalar_dense, GB0033) and
breaks. torch._check on a shape test and a plain `assert` with a string message do not."""
import torch


@torch.compile
def step(x):
    x = x.abs()
    assert (x >= 0).all(), "negative"
    torch._check(x.shape[0] == 4)
    torch._assert((x >= 0).all(), "negative")  # expect: GM202
    return x + 1


def example():
    return step, (torch.randn(4, 8),)
