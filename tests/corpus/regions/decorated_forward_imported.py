"""A forward decorated with an imported decorator that returns a nested wrapper: calling the
module runs the wrapper and the nested helper it calls, both compiled code of the decorator's
module (the tensor branch is reported there). Decorators that return the function itself
(passthrough, keep_unreturned) add no compiled code."""
import torch
from torch import nn

from rg_rope_lib import keep_unreturned, passthrough, refresh_cache


class Rotary(nn.Module):
    def __init__(self):
        super().__init__()
        self.mode = "grow"
        self.cached_len = 4
        self.scale = 1.0

    @refresh_cache
    def forward(self, x, positions):
        return x * self.scale + positions


class Scale(nn.Module):
    @passthrough
    def forward(self, x):
        return x * 2


class Shift(nn.Module):
    @keep_unreturned
    def forward(self, x):
        return x + 1


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rotary = Rotary()
        self.scale = Scale()
        self.shift = Shift()

    def forward(self, x, positions):
        return self.shift(self.scale(self.rotary(x, positions)))


def example():
    return Model().eval(), (torch.randn(2, 8), torch.arange(8).float())
