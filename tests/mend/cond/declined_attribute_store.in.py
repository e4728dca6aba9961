# mend-declined: writes an attribute or item
import torch
from torch import nn


class Cache(nn.Module):
    def forward(self, x: torch.Tensor):
        h = x * 2
        if h.sum() > 0:
            self.last = h
            y = h * 2
        else:
            y = h
        return y


def example():
    return Cache(), (torch.randn(4),)
