"""`from torch import nn`: forward of an nn.Module subclass is compiled."""
import torch
from torch import nn


class Block(nn.Module):
    def forward(self, x):
        x = x * 2
        print("block")  # expect: GM401
        return x


def example():
    return Block().eval(), (torch.randn(4, 8),)
