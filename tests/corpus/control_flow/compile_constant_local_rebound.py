"""A local that held a compile-time constant and is then rebound to a tensor test is no
longer a constant: the later `if` on it breaks (the first test, while it still holds
is_compiling(), folds)."""
import torch


@torch.compile
def step(x):
    compiling = torch.compiler.is_compiling() or isinstance(x, int)
    if not compiling and x.sum() > 0:
        x = x * 2
    compiling = x.mean() > 0
    if compiling:  # expect: GM101
        x = x - 1
    return x


def example():
    return step, (torch.randn(4, 8),)
