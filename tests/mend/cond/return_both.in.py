# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x: torch.Tensor):
        if x.sum() > 0:
            h = self.proj(x)
            return h * 2
        else:
            return self.proj(-x)


def example():
    return Head(), (torch.randn(2, 3),)
