"""print() in a @torch.compile function."""
import torch


@torch.compile
def step(x):
    x = torch.relu(x)
    print("step")  # expect: GM401
    return x + 1


def example():
    return step, (torch.randn(4, 8),)
