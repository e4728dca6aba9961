# mend-applicability: safe
import torch
from torch import nn


class Mixer(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(6))

    def forward(self, x: torch.Tensor, y: torch.Tensor):
        if x.mean() > y.mean():
            a = x * self.scale
            b = y.clamp(min=-1.0, max=1.0)
        else:
            a = y * self.scale
            b = x.clamp(min=-1.0, max=1.0)
        return a + b


def example():
    return Mixer(), (torch.randn(6), torch.randn(6))
