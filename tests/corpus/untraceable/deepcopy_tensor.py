"""copy.deepcopy of a tensor breaks (GB4198 "Attempted to copy.deepcopy a tensor"); deep copies
of constants (through `from copy import deepcopy` too) and copy.copy of a tuple are traced.
Only one tensor deep copy per case: dynamo logs a second one as a duplicate of the first (the
same line of copy.py), without a frame in this file."""
import copy
from copy import deepcopy

import torch


@torch.compile
def step(x):
    y = torch.relu(x)
    snap = copy.deepcopy(y)  # expect: GM506
    y = y * 2
    cfg = deepcopy({"k": 1, "names": ["a"]})
    t = copy.copy((1, 2))
    return y * cfg["k"] * t[1] + snap


def example():
    return step, (torch.randn(4, 8),)
