"""print() in a `finally` block (reached on the normal path)."""
import torch


@torch.compile
def step(x):
    try:
        x = x * 2
    finally:
        print("cleanup")  # expect: GM401
    return x + 1


def example():
    return step, (torch.randn(4, 8),)
