"""`if mask is not None:` folds at trace time; the tensor test nested inside the None check is
reached (a mask is passed) and breaks."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, mask=None, bias=None):
        if bias is not None:
            x = x + bias
        if mask is not None:
            x = x.masked_fill(~mask, 0.0)
            if mask.all():  # expect: GM101
                x = x * 2
        return x


def example():
    return Model().eval(), (torch.randn(4, 8), torch.randn(4, 8) > 0)
