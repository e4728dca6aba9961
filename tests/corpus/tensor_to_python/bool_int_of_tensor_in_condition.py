"""`if bool(t.any()):`: the bool() conversion itself is the break (GB0124), reported as GM202;
the `if` then tests a Python bool in the resumed code and adds no branch break."""
import torch


@torch.compile
def step(x):
    y = x.relu()
    if bool(y.any()):  # expect: GM202
        y = y * 2
    return y


def example():
    return step, (torch.randn(4, 8),)
