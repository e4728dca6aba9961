# mend-declined: does not import torch
from torch import compile, randn


@compile
def scale(x):
    y = x * 2
    print("shape", y.shape)
    return y + 1


def example():
    return scale, (randn(4),)
