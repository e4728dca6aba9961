"""`import torch.nn as nn`."""
import torch
import torch.nn as nn


class Block(nn.Module):
    def forward(self, x):
        x = x + 1
        if x.std() > 0.1:  # expect: GM101
            x = x / x.std()
        return x


def example():
    return Block().eval(), (torch.randn(4, 8),)
