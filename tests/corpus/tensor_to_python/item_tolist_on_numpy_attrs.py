"""NumPy values read inside a region are traced as tensors (torch._numpy): `.item()` on a NumPy
scalar attribute needs its data (aten._local_scalar_dense) and `.tolist()` on a float NumPy array
attribute is a float tolist(); both break like their tensor forms."""
import numpy as np
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = np.float32(0.5)
        self.bias = np.array([1.0, 2.0])

    def forward(self, x):
        s = self.scale.item()  # expect: GM201
        b = self.bias.tolist()  # expect: GM202
        return x * s + b[0]


def example():
    return Model().eval(), (torch.randn(4, 8),)
