"""A class is an nn.Module when a base in another module is one, however it is named:
`Net(Residual)`, with `Residual(Block)` and `Block(nn.Module)` in rg_layers_lib, has its
forward compiled, and its print breaks. A class whose base from there is a plain mixin is no
Module: its forward is not compiled (and it is never called by compiled code)."""
import torch

from rg_layers_lib import Describe, Residual


class Net(Residual):
    def forward(self, x):
        print("forward", x.shape)  # expect: GM401
        return self.scale(x)


class NotAModule(Describe):
    def forward(self, x):
        print("never compiled")
        return x


def example():
    return Net().eval(), (torch.randn(3),)
