# mend-declined: does not import torch
# The file does not import torch, and the function uses the name torch for something else, so
# the guard cannot import it.
from torch import compile, randn


@compile
def scale(x, torch=2):
    y = x * torch
    print("shape", y.shape)
    return y + 1


def example():
    return scale, (randn(4),)
