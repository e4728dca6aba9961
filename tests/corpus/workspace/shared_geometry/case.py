"""Compiled code across modules: forward calls helpers of a package next to it, one re-exported
by the package's __init__, one through a module attribute; their breaks are reported in the
helper module, as dynamo reports them (innermost frame), and the helper nothing compiled calls
is left alone."""
import torch
import torch.nn as nn

from geometry_ops import clamp_norm
from geometry_ops import clamp as ops


class Projector(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        y = clamp_norm(self.proj(x), 1.0)
        return ops.report(y.relu())


def example():
    return Projector().eval(), (torch.randn(4, 8) * 5,)
