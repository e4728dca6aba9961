"""Calls of Linear, Conv1d and LayerNorm submodules, and of a module attribute named like an RNN,
are traced: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.Linear(4, 4)
        self.norm = nn.LayerNorm(4)

    def forward(self, x):
        x = self.rnn(x)
        return self.norm(x)


def example():
    return Model().eval(), (torch.randn(3, 4),)
