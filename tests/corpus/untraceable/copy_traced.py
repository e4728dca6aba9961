"""copy.copy of a tuple or of a user object, and copy.deepcopy of constants and of a user
object without tensors, are traced on torch 2.13: no break."""
import copy

import torch


class Options:
    def __init__(self):
        self.scale = 2


OPTS = Options()


@torch.compile
def step(x):
    o = copy.copy(OPTS)
    d = copy.deepcopy(OPTS)
    t = copy.copy((1, 2))
    n = copy.deepcopy(3)
    return x * o.scale * d.scale * t[0] * n


def example():
    return step, (torch.randn(4, 8),)
