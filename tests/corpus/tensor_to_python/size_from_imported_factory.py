"""A torch factory imported by name (`from torch import arange`) reads a size made in the graph
as `torch.arange` does: GM202 at the call. NumPy's `ones` of an int and torch's `zeros` of a
Python int are no break."""

import torch
from numpy import ones
from torch import arange, zeros


@torch.compile
def positions(t: torch.Tensor):
    a = arange(t.abs().sum().long() % 4 + 1)  # expect: GM202
    return a


@torch.compile
def constants(t: torch.Tensor):
    b = zeros(3) + t.sum()
    c = torch.as_tensor(ones(int(3))) + b
    return c


def run(t):
    return positions(t).sum() + constants(t).sum()


def example():
    return run, (torch.randn(5),)
