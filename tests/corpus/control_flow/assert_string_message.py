"""`assert <tensor>, "message"` is rewritten to torch._assert_async: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x.abs()
        assert (x >= 0).all(), "negative input"
        assert x.shape[-1] == 8, "bad width"
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
