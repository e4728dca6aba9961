"""print(..., file=sys.stderr) and print with sep/end keywords: each call breaks."""
import sys

import torch


@torch.compile
def step(x):
    y = x * 2
    print("debug", y.shape, file=sys.stderr)  # expect: GM401
    y = y + 1
    print("a", "b", sep="-", end="\n")  # expect: GM401
    return y


def example():
    return step, (torch.randn(4, 8),)
