"""torch.jit.is_scripting() and torch.jit.is_tracing() are False under dynamo: a tensor branch
behind `if not torch.jit.is_scripting():` still runs and breaks; one behind
`if torch.jit.is_tracing():` is dead code."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        if torch.jit.is_tracing():
            if x.sum() > 0:
                x = x + 1
        if torch.jit.is_scripting() and x.sum() > 0:
            x = x - 1
        if not torch.jit.is_scripting():
            if x.max() > 1:  # expect: GM101
                x = x / 2
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
