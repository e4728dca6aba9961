# mend-declined: does not import torch
from torch import compile, rand, isfinite


@compile
def check_finite(x):
    if not isfinite(x).all():
        raise ValueError("non-finite input")
    return x * 2


def example():
    return check_finite, (rand(4),)
