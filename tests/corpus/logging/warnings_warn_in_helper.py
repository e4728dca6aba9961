"""warnings.warn with a category and stacklevel in a helper called from forward: reported
inside the helper."""
import warnings

import torch
from torch import nn


def check_dtype(t):
    warnings.warn("deprecated path", DeprecationWarning, stacklevel=2)  # expect: GM403
    return t.float()


class Model(nn.Module):
    def forward(self, x):
        x = check_dtype(x)
        return x * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
