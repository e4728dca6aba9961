# mend-declined: not a tensor
import torch


@torch.compile
def check_range(x, strict: bool):
    # a Python flag in the test: torch.logical_or cannot take it as a tensor
    if strict or (x < 0).any():
        raise ValueError("values must not be negative")
    return x * 2


def example():
    return check_range, (torch.rand(4), False)
