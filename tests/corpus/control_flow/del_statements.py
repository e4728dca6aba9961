"""`del` of locals is traced: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        tmp = x * 2
        out = tmp + 1
        del tmp
        cache = {"a": out}
        del cache["a"]
        return out


def example():
    return Model().eval(), (torch.randn(4, 8),)
