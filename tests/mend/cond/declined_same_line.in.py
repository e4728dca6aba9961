# mend-declined: shares a line with its if or else
import torch
from torch import nn


class Inline(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 4)
        self.down = nn.Linear(4, 4)

    def forward(self, h: torch.Tensor):
        if h.mean() > 0: y = self.up(h); y = torch.relu(y)  # noqa: E701, E702
        else:
            y = self.down(h)
        return y


def example():
    return Inline(), (torch.randn(2, 4),)
