"""allow_rnn = True: dynamo traces nn.LSTM instead of breaking on it (GB0014 by default)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.rnn = nn.LSTM(4, 4)

    def forward(self, x):
        x = self.proj(x)
        y, _ = self.rnn(x)
        return y * 2


def example():
    return Model().eval(), (torch.randn(3, 2, 4),)
