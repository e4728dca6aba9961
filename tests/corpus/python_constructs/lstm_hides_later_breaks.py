"""A break before an nn.LSTM call is reported and resumed; the LSTM call then breaks (GB0014)
and torch 2.13 cannot resume after it, so it runs the rest of forward eagerly and never
reports the print after it."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4)

    def forward(self, x):
        x = x + 1
        print("before")  # expect: GM401
        x = x * 2
        y, _ = self.rnn(x)  # expect: GM604
        print("after")
        return y


def example():
    return Model().eval(), (torch.randn(3, 2, 4),)
