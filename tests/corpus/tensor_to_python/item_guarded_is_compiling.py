"""`.item()` and int() of a tensor under `if not torch.compiler.is_compiling():` are dead code
under compile: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        if not torch.compiler.is_compiling():
            print("max", y.max().item(), int(y.argmax()))
        return y * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
