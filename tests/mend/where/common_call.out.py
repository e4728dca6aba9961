# mend-applicability: safe
import torch
from torch import nn


class Shared(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.norm(x)
        y = self.proj(torch.where(h.mean() > 0, h * 2, h - 1))
        return y


def example():
    return Shared(), (torch.randn(3, 4),)
