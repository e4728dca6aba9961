"""Constructs dynamo traces on 2.13: getattr with a name passed in (specialised on the string),
a set of tensors, and requires_grad_() on a tensor that does not leave the function."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, name):
        x = x + 1
        m = getattr(self, name)
        s = {x, name}
        u = torch.zeros(3)
        u.requires_grad_()
        return m(x) * len(s)


def example():
    return Model().eval(), (torch.randn(4), "lin")
