"""Predicates dynamo answers at trace time: torch.is_grad_enabled(), torch.is_tensor(),
t.requires_grad, t.is_floating_point(): no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, scale=2.0):
        if torch.is_grad_enabled():
            x = x * 1.0
        if torch.is_tensor(scale):
            x = x * scale
        if not x.requires_grad and x.is_floating_point():
            x = x + 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
