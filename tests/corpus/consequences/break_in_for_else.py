"""`.item()` in the `else` clause of a for loop over range: the else clause runs after the last
iteration and is not inside the loop body."""
import torch


@torch.compile
def step(x):
    for i in range(2):
        x = x * 2
    else:
        s = x.sum().item()  # expect: GM201
    return x / s


def example():
    return step, (torch.randn(4, 8),)
