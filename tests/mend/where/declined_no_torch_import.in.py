# mend-declined: does not import torch
from torch import nn
from torch.nn import functional as F


class Gate(nn.Module):
    def forward(self, x):
        h = F.relu(x)
        if h.sum() > 1:
            y = h * 2
        else:
            y = h
        return y


def example():
    from torch import randn

    return Gate(), (randn(4),)
