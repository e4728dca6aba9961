"""An elif chain that mixes tests: the shape tests fold, the tensor test in the middle is
reached (the first shape test is false) and breaks; the shape test after it does not."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        if x.dim() == 3:
            x = x.mean(0)
        elif x.amax() > 100:  # expect: GM101
            x = x / 100
        elif x.shape[0] > 2:
            x = x - 1
        else:
            x = x + 1
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
