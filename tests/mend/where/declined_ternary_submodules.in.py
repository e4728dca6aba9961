# mend-declined: calls code graphmend cannot see
import torch
from torch import nn


class Pick(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.b = nn.Linear(4, 4)

    def forward(self, x):
        return self.a(x) if x.sum() > 0 else self.b(x)


def example():
    return Pick(), (torch.randn(2, 4),)
