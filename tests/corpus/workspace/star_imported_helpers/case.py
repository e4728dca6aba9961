"""Functions of another module reached through star imports (`from ..helpers import *` in the
module that calls them, and a package `__init__` that re-exports them so), with no return
annotation: what their bodies return is what other modules learn of them. A helper whose every
return is a tensor (`fold(...)`, `torch.relu(w) * n`) makes its call a tensor, so a mask of it
indexes as a dynamic-shape operation (GB0036) and a branch on it is data-dependent (GB0170); a
helper that returns a Python number on some path (`scale_of`) says nothing."""
import torch

from spectral_kit import rectified
from spectral_kit.features.inverse import Inverse


class Pipeline(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inverse = Inverse()

    def forward(self, x):
        out = self.inverse(x)
        if rectified(x[0, 0], 2) > 0:  # expect: GM101
            out = out * 2
        return out


def example():
    return Pipeline().eval(), (torch.rand(4, 8),)
