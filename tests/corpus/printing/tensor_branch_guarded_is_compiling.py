"""A tensor branch behind `torch.compiler.is_compiling()` guards: never traced, no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        if not torch.compiler.is_compiling() and x.sum() > 0:
            x = x - 1
        if not torch.compiler.is_compiling():
            if x.isnan().any():
                x = torch.nan_to_num(x)
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
