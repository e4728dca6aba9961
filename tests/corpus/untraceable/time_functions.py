"""Every function of the `time` module is C that dynamo skips (GB0007), not only the clocks:
sleep, the *_ns clocks, strftime, localtime. Reading the function object `time.time` without
calling it is traced."""
import time
from time import sleep

import torch


@torch.compile
def step(x):
    y = x.relu()
    sleep(0)  # expect: GM501
    y = y * 2
    a = time.time_ns()  # expect: GM501
    y = y + 1
    s = time.strftime("%Y")  # expect: GM501
    y = y - 1
    t = time.localtime()  # expect: GM501
    y = y * 3
    clock = time.time
    k = 1 if callable(clock) else 0
    return y * k * len(s) + a % 2, t


def example():
    return step, (torch.randn(4, 8),)
