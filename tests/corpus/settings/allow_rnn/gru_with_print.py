"""allow_rnn = True traces the GRU, but other breaks stay: the print still breaks (GB0059)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(4, 4)

    def forward(self, x):
        y, h = self.rnn(x)
        print("hidden", h)  # expect: GM401
        return y * 2


def example():
    return Model().eval(), (torch.randn(3, 2, 4),)
