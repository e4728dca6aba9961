"""print() inside torch.no_grad(): torch's own context managers survive a break,
so this is an ordinary (resumable) break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x + 1
        with torch.no_grad():
            y = x * 2
            print("inside no_grad")  # expect: GM401
            y = y - 1
        return y


def example():
    return Model().eval(), (torch.randn(4, 8),)
