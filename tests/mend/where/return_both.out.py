# mend-applicability: safe
import torch
from torch import nn


class Soft(nn.Module):
    def forward(self, x: torch.Tensor):
        return torch.where(x.mean() > 0, torch.tanh(x) * 2.0, torch.sigmoid(x))


def example():
    return Soft(), (torch.randn(3, 4),)
