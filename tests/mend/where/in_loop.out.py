# mend-applicability: safe
import torch
from torch import nn


class Steps(nn.Module):
    """A branch in a loop body makes dynamo run the whole frame eagerly; the select keeps it
    in one graph."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        h = x
        for _ in range(3):
            h = self.fc(h)
            h = torch.where(h.abs().max() > 1, torch.tanh(h), h)
        return h


def example():
    return Steps(), (torch.randn(2, 4) * 3,)
