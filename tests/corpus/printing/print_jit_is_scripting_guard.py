"""`if not torch.jit.is_scripting():` is True under dynamo (is_scripting() is False), so the
print behind it runs and breaks; behind `torch.jit.is_scripting()` it is dead code."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        if torch.jit.is_scripting():
            print("scripting")
        if not torch.jit.is_scripting():
            print("eager or compiled")  # expect: GM401
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
