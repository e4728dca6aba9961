"""Python-side traps in one compiled function: random.uniform() used as a value, a NumPy
scalar, `del` of locals, and a `torch.no_grad()` block: no break."""
import random

import numpy as np
import torch


@torch.compile
def step(x):
    p = random.uniform(0.5, 1.5)
    scale = np.float32(2.0)
    tmp = x * scale
    del scale
    with torch.no_grad():
        y = tmp.relu() * p
    del tmp
    return y + 1


def example():
    return step, (torch.randn(4, 8),)
