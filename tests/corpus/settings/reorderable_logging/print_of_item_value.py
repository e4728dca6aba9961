"""print in reorderable_logging_functions with a .item() argument: the .item() breaks by
itself (capture_scalar_outputs is off, GB0124), dynamo resumes with the number as a constant
and then defers the print, so the only break is the .item() one."""
import torch


@torch.compile
def step(x):
    y = x + 1
    print("total", y.sum().item())  # expect: GM201
    return y * 2


def example():
    return step, (torch.randn(4, 8),)
