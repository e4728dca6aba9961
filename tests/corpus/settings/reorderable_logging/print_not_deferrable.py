"""print in reorderable_logging_functions, but with an argument dynamo cannot defer: a file
object (file=sys.stderr), a torch.Size (x.shape) or a list. Each call breaks the graph with
GB0296 "attempted to reorder a debugging function that can't actually be reordered"; a call
with deferrable arguments next to them does not."""
import sys

import torch


@torch.compile
def step(x):
    y = x + 1
    print("y", y, file=sys.stderr)  # expect: GM401
    y = y * 2
    print("shape", y.shape)  # expect: GM401
    y = y - 1
    print("pair", [y, x])  # expect: GM401
    print("fine", y)
    return y


def example():
    return step, (torch.randn(4, 8),)
