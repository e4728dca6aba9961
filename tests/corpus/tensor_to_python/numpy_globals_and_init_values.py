"""NumPy arrays at module level or made in __init__ are traced as tensors inside the region:
`.tolist()` on a float or an integer array breaks, and `.item()` on a reduction of an array made
in the region breaks. NumPy used only in __init__ to compute Python numbers (`int(np.prod(...))`,
`float(np.sqrt(...))`), and a NumPy scalar used in arithmetic, do not break."""
import numpy as np
import torch
from torch import nn

W = np.array([1.0, 2.0])
IW = np.array([1, 2])


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = int(np.prod((2, 4)))
        self.k = np.float32(2.0)
        self.f = float(np.sqrt(4.0))
        self.iw = np.arange(3)

    def forward(self, x):
        x = x * self.k * self.f + self.n
        a = W.tolist()  # expect: GM202
        x = x + 1
        c = self.iw.tolist()  # expect: GM202
        x = x + 2
        b = IW.tolist()  # expect: GM202
        x = x + 3
        d = np.arange(3).sum().item()  # expect: GM201
        return x + a[0] + b[0] + c[0] + d


def example():
    return Model().eval(), (torch.randn(4, 8),)
