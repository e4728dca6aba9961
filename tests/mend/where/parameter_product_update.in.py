# mend-applicability: safe
# A value computed from an nn.Parameter (`x @ self.w`) is a tensor, whatever x is: the clamp the
# if applies becomes a select.
import torch as th
from torch import nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(th.randn(8, 8))

    def forward(self, x):
        g = x @ self.w
        if th.any(g < -3):
            g = g.clamp(min=-3)
        return g * 2


def example():
    return Gate().eval(), (th.randn(4, 8) * 3,)
