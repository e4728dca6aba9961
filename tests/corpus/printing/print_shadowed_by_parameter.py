"""A parameter named `print` shadows the builtin: calling it calls the function passed in, which
dynamo traces: no break."""
import torch


def record(t):
    return t


@torch.compile
def step(x, print=record):
    y = x * 2
    print(y)
    return y + 1


def example():
    return step, (torch.randn(4, 8),)
