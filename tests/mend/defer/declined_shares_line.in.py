# mend-declined: another statement shares the call's line
import torch


@torch.compile
def scale(x):
    y = x * 2
    print("shape", y.shape); z = y + 1
    return z


def example():
    return scale, (torch.randn(4),)
