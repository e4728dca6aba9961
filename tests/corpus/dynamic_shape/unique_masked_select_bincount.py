"""torch.unique, Tensor.unique, torch.masked_select and torch.bincount: GB0036 at each call."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x: torch.Tensor):
        y = x.relu()
        u = torch.unique(y)  # expect: GM301
        v = y.unique()  # expect: GM301
        m = torch.masked_select(y, y > 0)  # expect: GM301
        n = torch.bincount((y * 3).long().flatten())  # expect: GM301
        return u.sum() + v.sum() + m.sum() + n.sum()


def example():
    return Model().eval(), (torch.randn(4, 8),)
