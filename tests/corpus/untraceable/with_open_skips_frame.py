"""`with open(...)` breaks at open() (GB0059) and then cannot enter the file object as a context
manager (GB0142 "Unsupported context manager"): dynamo skips the function, so the print after
the block is never reported."""
import os

import torch


@torch.compile
def step(x):
    y = x.relu()
    with open(os.devnull) as f:  # expect: GM503
        n = len(f.read())
    print("read", n)
    return y + n


def example():
    return step, (torch.randn(4, 8),)
