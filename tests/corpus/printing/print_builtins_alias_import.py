"""`from builtins import print as p` binds the print builtin under another name: p(...) breaks.
Other builtins reached through the builtins module (`builtins.len`) are traced."""
import builtins
from builtins import print as p

import torch


@torch.compile
def step(x):
    y = x * 2
    n = builtins.len(y.shape)
    p("value", y.shape)  # expect: GM401
    return y + n


def example():
    return step, (torch.randn(4, 8),)
