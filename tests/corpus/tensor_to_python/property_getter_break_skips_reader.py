"""A graph break inside a @property getter: dynamo inlines the getter where the property is read,
and cannot break at that read (an attribute load, not a call), so it gives up on the reading
function ("Failed to handle graph break gracefully"): the getter's line is the only break
reported, and the print after the read in forward is never traced (the frame runs eagerly)."""
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

    def forward(self, x):
        y = self.proj(x)
        z = y * self.stats.scale
        print("z", z.shape)
        return z.relu()


def example():
    return Net().eval(), (torch.randn(2, 8),)
