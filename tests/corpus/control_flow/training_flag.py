"""`self.training` is a constant at trace time (eval mode here): no break, even
with a tensor test behind `and` that is never evaluated."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        if self.training:
            x = self.drop(x)
        if self.training and x.sum() > 0:
            x = x * 2
        return x + 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
