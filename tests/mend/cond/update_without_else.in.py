# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
from torch import nn


class Residual(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor):
        h = x * 2
        if h.max() > 1:
            t = self.proj(h)
            h = h + t
        return h


def example():
    return Residual(), (torch.randn(3, 4),)
