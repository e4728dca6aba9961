"""print() in forward: dynamo cannot trace the builtin and breaks."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        h = self.proj(x)
        print("hidden mean:", h.mean())  # expect: GM401
        return h * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
