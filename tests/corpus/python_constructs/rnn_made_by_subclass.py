"""A base class's forward calls `self.rnn(...)`, which the base's __init__ sets to an identity
module and a subclass's __init__ to an nn.LSTM (timm's Sequencer2d: RNN2dBase and LSTM2d). Run
through the subclass, dynamo cannot trace the LSTM and skips the whole function (GB0014), so
the second recurrent call is never reached; a base-class instance compiles to one graph."""
import torch
from torch import nn


class RNNIdentity(nn.Module):
    def forward(self, x):
        return x, None


class RNN2dBase(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.rnn_v = RNNIdentity()
        self.rnn_h = RNNIdentity()
        self.fc = nn.Linear(2 * size, size)

    def forward(self, x):
        v, _ = self.rnn_v(x)  # expect: GM604
        h, _ = self.rnn_h(x.flip(1))
        return self.fc(torch.cat([v, h], dim=-1))


class LSTM2d(RNN2dBase):
    def __init__(self, size):
        super().__init__(size)
        self.rnn_v = nn.LSTM(size, size, batch_first=True)
        self.rnn_h = nn.LSTM(size, size, batch_first=True)


def example():
    return LSTM2d(8).eval(), (torch.randn(2, 5, 8),)
