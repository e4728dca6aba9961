"""`model.compile()` (nn.Module.compile) compiles the module's forward; with graphmend's
default every module forward is a region anyway, and `torch.compile` of a plain helper that is
never called compiles nothing of it."""
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(6))

    def forward(self, x):
        g = torch.sigmoid(x * self.w)
        if g.mean() > 0.5:  # expect: GM101
            return x * g
        return x


def build():
    model = Gate().eval()
    model.compile()
    return model


def example():
    return build(), (torch.randn(3, 6),)
