"""torch.unique with return_counts/return_inverse and unique_consecutive: GB0036 at each call."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        labels = (x.abs() * 2).long()
        values, counts = torch.unique(labels, return_counts=True)  # expect: GM301
        inv = labels.unique(sorted=True, return_inverse=True)[1]  # expect: GM301
        runs = torch.unique_consecutive(labels)  # expect: GM301
        return values.sum() + counts.sum() + inv.sum() + runs.sum()


def example():
    return Model().eval(), (torch.randn(4, 8),)
