"""A graph break inside a @property getter read after the function stored a tensor into an
attribute (`self.cache = y * 2`): dynamo then also reports the read itself (explain's
step_unsupported on that line) and keeps the graph before it; the rest of the function runs
eagerly, so the print after it is not reported. Appending a tensor to a list attribute is not
such a store (property_getter_break_skips_reader.py's behaviour holds there)."""
import torch
from torch import nn


class Stats:
    def __init__(self):
        self.weight = torch.ones(8)

    @property
    def scale(self):
        return self.weight * self.weight.sum().item()  # expect: GM201


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stats = Stats()
        self.proj = nn.Linear(8, 8)
        self.history = []

    def forward(self, x):
        y = self.proj(x)
        self.cache = y * 2
        z = y * self.stats.scale  # expect: GM201
        print("z", z.shape)
        return z.relu()


class Appending(Net):
    def forward(self, x):
        y = self.proj(x)
        self.history.append(y)
        z = y * self.stats.scale
        return z.relu()


def example():
    return Net().eval(), (torch.randn(2, 8),)
