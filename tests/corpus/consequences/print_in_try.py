"""print() inside try: dynamo cannot resume inside the block and skips the frame."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x + 1
        try:
            print("inside try")  # expect: GM401
            x = x * 2
        except RuntimeError:
            x = x - 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
