"""`.item()` in a @property that forward reads: reported inside the property's getter."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("temperature", torch.tensor(2.0))

    @property
    def temp(self):
        return self.temperature.item()  # expect: GM201

    def forward(self, x):
        x = x * 2
        return x / self.temp


def example():
    return Model().eval(), (torch.randn(4, 8),)
