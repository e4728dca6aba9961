"""An attribute __init__ makes a lambda (`self.calc_drop = lambda h, w: p`) is a plain callable,
not a submodule: what calling it returns is a Python float here, so `int(n * (1 - r))` is
traced. A submodule call (`self.proj(x)`) still returns a tensor, whose `int()` breaks."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, drop=0.25):
        super().__init__()
        self.proj = nn.Linear(8, 1)
        self.calc_drop = lambda h, w: drop

    def forward(self, x):
        r = self.calc_drop(*x.shape[-2:])
        keep = int(x.shape[-1] * (1 - r))
        s = self.proj(x).sum()
        n = int(s)  # expect: GM202
        return x[..., :keep] * n


def example():
    return Model().eval(), (torch.randn(4, 8),)
