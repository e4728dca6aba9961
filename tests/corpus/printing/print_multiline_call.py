"""A print() call spread over several lines is reported on its first line."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x + 1
        print(  # expect: GM401
            "stats",
            y.max(),
            y.min(),
        )
        return y


def example():
    return Model().eval(), (torch.randn(4, 8),)
