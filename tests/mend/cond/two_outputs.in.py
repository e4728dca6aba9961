# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
from torch import nn


class Experts(nn.Module):
    """Two outputs. The code after the if weighs them differently: torch 2.13 cannot
    differentiate a torch.cond whose outputs get one gradient tensor (`a + b`), which the mend's
    title says."""

    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 4)
        self.down = nn.Linear(4, 4)

    def forward(self, h: torch.Tensor):
        if h.mean() > 0:
            a = self.up(h)
            b = a * 2
        else:
            a = self.down(h)
            b = a + 1
        return a * 2 + b


def example():
    return Experts(), (torch.randn(2, 4),)
