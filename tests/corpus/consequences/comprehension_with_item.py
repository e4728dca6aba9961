"""`.item()` inside a list comprehension over a tensor's rows: the comprehension is a loop, the
break is reported at the comprehension's line."""
import torch


@torch.compile
def step(x):
    y = x.softmax(-1)
    peaks = [row.max().item() for row in y]  # expect: GM201
    return y, peaks


def example():
    return step, (torch.randn(4, 8),)
