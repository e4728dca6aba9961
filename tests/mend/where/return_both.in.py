# mend-applicability: safe
import torch
from torch import nn


class Soft(nn.Module):
    def forward(self, x: torch.Tensor):
        if x.mean() > 0:
            return torch.tanh(x) * 2.0
        else:
            return torch.sigmoid(x)


def example():
    return Soft(), (torch.randn(3, 4),)
