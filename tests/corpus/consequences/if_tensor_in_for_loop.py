"""A tensor branch inside a for loop: the frame is skipped and runs eagerly."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
            if x.abs().max() > 10:  # expect: GM101
                x = x / 10
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
