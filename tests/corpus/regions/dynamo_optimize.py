"""@torch._dynamo.optimize("eager") is a compiled region too."""
import torch
import torch._dynamo


@torch._dynamo.optimize("eager")
def step(x):
    x = x.relu()
    print("relu")  # expect: GM401
    return x * 2


def example():
    return step, (torch.randn(4, 8),)
