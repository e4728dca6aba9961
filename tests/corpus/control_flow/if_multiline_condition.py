"""A parenthesised condition over several lines: dynamo reports the line of the
instruction that tests the tensor (the `x.sum() > 0` line), not the line of `if (`."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x + 1
        if (
            x.sum() > 0  # expect: GM101
        ):
            x = x * 2
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
