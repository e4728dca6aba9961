"""`.item()` inside a loop over an nn.ModuleList: the frame is skipped and runs eagerly; the
break is still reported at the `.item()` line."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x):
        scales = []
        for layer in self.layers:
            x = layer(x)
            scales.append(x.abs().mean().item())  # expect: GM201
        return x, scales


def example():
    return Model().eval(), (torch.randn(4, 8),)
