"""math functions of Python numbers and of sizes (`x.shape[0]`, `x.size(1)`) fold; of a 0-d
tensor they convert it to a Python number (GB0033) and break, whichever function and however
it is imported (`from math import sqrt as root`)."""
import math
from math import isnan
from math import sqrt as root

import torch


@torch.compile
def step(x):
    a = math.sqrt(4.0)
    b = math.sqrt(x.shape[0])
    c = math.log(x.size(1))
    x = x * a * b * c
    d = math.log(x.abs().sum())  # expect: GM202
    x = x + 1
    e = math.floor(x.mean())  # expect: GM202
    x = x + 2
    f = isnan(x.sum())  # expect: GM202
    x = x + 3
    g = math.exp(x.max())  # expect: GM202
    x = x + 4
    h = math.pow(x.sum(), 2)  # expect: GM202
    x = x + 5
    i = root(x.abs().max())  # expect: GM202
    j = root(x.shape[1])
    return x + d + e + f + g + h + i + j


def example():
    return step, (torch.randn(4, 8),)
