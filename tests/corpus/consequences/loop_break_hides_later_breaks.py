"""A break inside a loop makes dynamo skip the whole frame, so a second break after the loop in
the same function is never traced and never reported."""
import torch


@torch.compile
def step(x):
    for i in range(2):
        x = x + i
        print("step", i)  # expect: GM401
    x = x * 2
    print("after loop")
    return x


def example():
    return step, (torch.randn(4, 8),)
