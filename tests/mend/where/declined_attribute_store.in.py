# mend-declined: does more than assign names
import torch
from torch import nn


class Memo(nn.Module):
    def forward(self, x: torch.Tensor):
        h = x * 2
        if h.sum() > 0:
            self.last = h
        return h + 1


def example():
    return Memo(), (torch.randn(4),)
