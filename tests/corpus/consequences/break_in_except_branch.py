"""print() in an `except` handler that runs (the try body raises): the break is reported at the
print inside the handler."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x + 1
        try:
            raise ValueError("fallback")
        except ValueError:
            print("handled")  # expect: GM401
            x = x * 2
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
