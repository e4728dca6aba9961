"""time clocks through the module, an alias and `from time import`: dynamo skips them
(GB0007) at each call."""
import time
import time as t
from time import perf_counter

import torch


@torch.compile
def step(x):
    y = x.relu()
    a = time.time()  # expect: GM501
    y = y * 2
    b = perf_counter()  # expect: GM501
    y = y + 1
    c = t.monotonic()  # expect: GM501
    y = y - 1
    d = time.process_time()  # expect: GM501
    return y * (a + b + c + d > 0)


def example():
    return step, (torch.randn(4, 8),)
