"""isinstance tests are folded at trace time: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, extra):
        if isinstance(extra, torch.Tensor):
            x = x + extra
        if isinstance(extra, (list, tuple)):
            x = x + len(extra)
        if not isinstance(x, torch.Tensor):
            x = torch.as_tensor(x)
        return x * 2


def example():
    return Model().eval(), (torch.randn(4, 8), torch.ones(8))
