"""A loop over an nn.ModuleList with no break inside is unrolled; an `.item()` after the loop
is an ordinary resumable break at its own line."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        peak = x.max().item()  # expect: GM201
        return x / (peak + 1)


def example():
    return Model().eval(), (torch.randn(4, 8),)
