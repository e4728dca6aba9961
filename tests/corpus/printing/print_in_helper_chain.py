"""A chain of helpers: forward calls scale, which calls log_shape; the print in log_shape is
reported there, once, though two regions reach it."""
import torch
from torch import nn


def log_shape(t):
    print("shape", t.shape)  # expect: GM401
    return t


def scale(t):
    t = log_shape(t)
    return t * 0.5


class Inner(nn.Module):
    def forward(self, x):
        return scale(x) + 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        x = scale(x)
        return self.inner(x)


def example():
    return Model().eval(), (torch.randn(4, 8),)
