"""print() inside a while loop with a static condition."""
import torch


@torch.compile
def step(x):
    i = 0
    while i < 2:
        x = x * 2
        print("iteration", i)  # expect: GM401
        i += 1
    return x


def example():
    return step, (torch.randn(4, 8),)
