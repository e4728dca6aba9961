"""warnings.warn, by module and by `from warnings import warn`: GB0007 at each call."""
import warnings
from warnings import warn

import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        warnings.warn("slow path")  # expect: GM403
        y = y * 2
        warn("another")  # expect: GM403
        return y


def example():
    return Model().eval(), (torch.randn(4, 8),)
