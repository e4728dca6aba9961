"""`.item()`, int() and tolist() at module level, in __init__ and in an uncompiled function:
no break."""
import torch
from torch import nn

THRESHOLD = torch.tensor(0.5).item()


def summarize(t):
    return int(t.sum()), t.mean().item(), t.tolist()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = float(torch.ones(1).sum())
        self.limit = torch.tensor(3).item()

    def forward(self, x):
        return x * self.scale + THRESHOLD


def example():
    summarize(torch.randn(2))
    return Model().eval(), (torch.randn(4, 8),)
