"""Python evaluates operands before the operation that uses them, and so does dynamo: a tensor
slice bound (after which dynamo cannot resume, so the frame runs eagerly) hides a boolean mask
applied to its result, and a mask read first is still reported before the bound that follows."""

import torch
from torch import nn


class Net(nn.Module):
    def slice_then_mask(self, x: torch.Tensor):
        n = x.abs().sum().floor().long() % 3 + 1
        return x[:n][x[:n] > 0]  # expect: GM202

    def mask_then_slice(self, x: torch.Tensor):
        n = x.abs().sum().floor().long() % 3 + 1
        return x[x > 0][:n]  # expect: GM301, GM202

    def nonzero_of_slice(self, x: torch.Tensor):
        n = x.abs().sum().floor().long() % 3 + 1
        return torch.nonzero(x[:n])  # expect: GM202

    def forward(self, x):
        a = self.slice_then_mask(x)
        b = self.mask_then_slice(x)
        c = self.nonzero_of_slice(x)
        return a.sum() + b.sum() + c.sum()


def example():
    return Net().eval(), (torch.randn(6),)
