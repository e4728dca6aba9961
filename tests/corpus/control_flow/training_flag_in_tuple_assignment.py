"""`p, drop = self.p, self.use_drop and self.training` binds `drop` element by element: in eval
mode `... and self.training` is False at trace time, so the `if drop:` body, whose `.item()`
would break, is never traced."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.p = 0.5
        self.use_drop = True

    def forward(self, x):
        p, drop = self.p, self.use_drop and self.training
        if drop:
            keep = int(x.shape[-1] * (1 - x.mean().item() * p))
            x = x[..., :keep]
        return x * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
