"""torch.no_grad() / inference blocks with ordinary tensor code: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        with torch.no_grad():
            h = self.proj(x)
            h = h * 2
        with torch.enable_grad():
            h = h + 1
        return h


def example():
    return Model().eval(), (torch.randn(4, 8),)
