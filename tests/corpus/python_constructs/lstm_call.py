"""Calling an nn.LSTM submodule breaks (GB0014); torch 2.13 cannot resume and runs the whole
forward eagerly. The Linear set up beside it is traced."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.rnn = nn.LSTM(4, 4)

    def forward(self, x):
        x = self.proj(x)
        y, _ = self.rnn(x)  # expect: GM604
        return y * 2


def example():
    return Model().eval(), (torch.randn(3, 2, 4),)
