"""print() inside a for loop: dynamo skips the whole frame ("graph break in loop");
explain() records no reason for it, the break is still at the print."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        for i in range(3):
            x = x + i
            print("step", i)  # expect: GM401
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
