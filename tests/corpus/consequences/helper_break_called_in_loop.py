"""A helper with a tensor branch called from a loop body: the break is reported inside the
helper, and since the caller is in a loop its frame is skipped."""
import torch
from torch import nn


def maybe_rescale(t):
    if t.abs().max() > 5:  # expect: GM101
        t = t / 5
    return t


class Model(nn.Module):
    def forward(self, x):
        for _ in range(3):
            x = maybe_rescale(x * 3)
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
