# mend-declined: not a statement of its own
import torch


@torch.compile
def scale(x, verbose):
    y = x * 2
    verbose and print("shape", y.shape)
    return y + 1


def example():
    return scale, (torch.randn(4), True)
