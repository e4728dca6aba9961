"""`torch.compiler.is_compiling()` folds to True under dynamo: `is_compiling() or t` and
`not is_compiling() and t` never test the tensor; `is_compiling() and t` does, and breaks."""
import torch


@torch.compile
def step(x):
    x = x + 1
    if torch.compiler.is_compiling() or x.sum() > 0:
        x = x * 2
    if not torch.compiler.is_compiling() and x.sum() > 0:
        x = x * 3
    if torch.compiler.is_compiling() and x.sum() > 0:  # expect: GM101
        x = x - 1
    return x


def example():
    return step, (torch.randn(4, 8),)
