"""A tensor branch in a helper defined inside forward: dynamo reports the innermost frame, the
`if` in the nested function."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        def clip(t):
            if t.abs().max() > 3:  # expect: GM101
                return t.clamp(-3, 3)
            return t

        x = x * 2
        return clip(x) + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
