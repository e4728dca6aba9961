"""math and NumPy calls on Python numbers are traced or constant: no break."""
import math

import numpy as np
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        scale = 1.0 / math.sqrt(self.dim)
        x = x * scale
        x = x * float(np.sqrt(4.0))
        if np.pi > 3:
            x = x + 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
