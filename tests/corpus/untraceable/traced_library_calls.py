"""Library calls dynamo traces on torch 2.13: os.getenv, os.environ.get, os.path.join, re.match,
re.sub and copy.deepcopy of a dict: no break."""
import copy
import os
import re

import torch


@torch.compile
def step(x):
    y = x.relu()
    home = os.getenv("HOME", "")
    env = os.environ.get("HOME", "")
    path = os.path.join("a", "b")
    m = bool(re.match("a", "abc"))
    s = re.sub("a", "b", "abc")
    d = copy.deepcopy({"k": 1})
    return y * (len(home) + len(env) + len(path) + m + len(s) + d["k"])


def example():
    return step, (torch.randn(4, 8),)
