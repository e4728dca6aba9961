"""`.item()` in __init__ stores a Python float; forward only uses the stored number: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        w = torch.randn(8, 8)
        self.norm = w.norm().item()
        self.rows = int(w.shape[0])
        self.register_buffer("w", w / self.norm)

    def forward(self, x):
        return x @ self.w * self.norm + self.rows


def example():
    return Model().eval(), (torch.randn(4, 8),)
