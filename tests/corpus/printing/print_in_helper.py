"""print() in a helper that forward calls: dynamo reports the break inside the helper
(innermost user frame), not at the call site."""
import torch
from torch import nn


def log_stats(t):
    print("mean", t.mean())  # expect: GM401
    return t


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        x = log_stats(x)
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
