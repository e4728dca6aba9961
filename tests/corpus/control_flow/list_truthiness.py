"""Truthiness of Python lists and tuples of tensors is static: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, extras):
        if extras:
            x = x + extras[0]
        outputs = []
        if not outputs:
            outputs.append(x * 2)
        return outputs[0]


def example():
    return Model().eval(), (torch.randn(4, 8), [torch.ones(8)])
