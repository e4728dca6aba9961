"""torch._assert on a Python bool (a shape test, a literal) is traced; torch.allclose returns a
Python bool computed from the data and breaks at its line."""
import torch


@torch.compile
def step(x, y):
    torch._assert(x.shape[0] == 4, "rows")
    torch._assert(True, "t")
    x = x + 1
    torch._assert(x.dim() == 2, "d")
    x = x + 2
    if torch.allclose(x, y):  # expect: GM202
        x = x * 2
    return x + 3


def example():
    return step, (torch.randn(4, 8), torch.randn(4, 8))
