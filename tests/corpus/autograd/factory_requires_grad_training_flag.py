"""`requires_grad=` of a tensor factory given a Python value rather than the literal True:
`self.training` folds (False in eval mode: nothing breaks; True under the `training = true`
setting: GM705, as maskformer's `torch.zeros_like(q, requires_grad=self.training)` breaks in
train runs), and a flag the analysis cannot decide makes the finding conditional on it (the
example passes True, so it breaks)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, flag):
        queries = torch.zeros_like(x, requires_grad=self.training)
        extra = torch.ones(4, 8, requires_grad=flag)  # expect: GM705
        return x + queries + extra


def example():
    return Model().eval(), (torch.randn(4, 8), True)
