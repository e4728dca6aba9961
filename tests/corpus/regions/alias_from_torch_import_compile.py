"""`from torch import compile as tc`: @tc(...) is torch.compile."""
import torch
from torch import compile as tc


@tc(dynamic=False)
def step(x):
    x = x * 3
    if x.min() < -1:  # expect: GM101
        x = x.clamp(min=-1)
    return x


def example():
    return step, (torch.randn(4, 8),)
