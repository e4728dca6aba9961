"""math.sqrt() of a Python number folds; math.sqrt() of a 0-d tensor converts it to a float
first, which needs the data and breaks."""
import math

import torch


@torch.compile
def step(x):
    d = math.sqrt(x.shape[-1])
    y = x / d
    n = math.sqrt(y.pow(2).sum())  # expect: GM202
    return y / n


def example():
    return step, (torch.randn(4, 8),)
