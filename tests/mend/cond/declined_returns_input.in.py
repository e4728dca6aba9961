# mend-declined: returns an input unchanged
import torch
from torch import nn


class Skip(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor):
        if x.sum() > 0:
            h = self.proj(x)
            return h * 2
        else:
            return x


def example():
    return Skip(), (torch.randn(2, 4),)
