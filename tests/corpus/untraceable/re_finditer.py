"""re.finditer is marked as skipped (GB0007); re.match, re.search, re.sub, re.compile and a
module-level compiled pattern's match/sub are traced on torch 2.13."""
import re

import torch

PATTERN = re.compile(r"layer(\d+)")


@torch.compile
def step(x, name):
    y = x.relu()
    hits = list(re.finditer("a", name))  # expect: GM501
    y = y * len(hits)
    m = PATTERN.match("layer3")
    s = PATTERN.sub("L", "layer1")
    found = re.search("b", name)
    short = re.sub("a", "", name)
    local = re.compile("x")
    return y * int(m.group(1)) * len(s) * (found is None) * len(short) * (local is not None)


def example():
    return step, (torch.randn(4, 8), "banana")
