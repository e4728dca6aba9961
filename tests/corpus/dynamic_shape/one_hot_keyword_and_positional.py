"""one_hot with num_classes passed positionally traces; num_classes=-1 (the default spelled out)
reads the class count from the data (reported as "Data dependent operator", GB0033, on 2.13)."""
import torch
import torch.nn.functional as F
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        labels = (x.abs() * 2).long().clamp(max=3)
        a = F.one_hot(labels, 4)
        b = F.one_hot(labels, num_classes=-1)  # expect: GM302
        return a.sum() + b.sum()


def example():
    return Model().eval(), (torch.randn(4, 8),)
