"""requires_grad_() on a tensor that comes from outside (an argument, a module parameter) breaks
(GB0125), even with False; on a tensor the function computes it is traced."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(8))

    def forward(self, x, mask):
        y = x * 2
        mask.requires_grad_()  # expect: GM703
        y = y + mask
        self.w.requires_grad_(False)  # expect: GM703
        h = y * 3
        h.requires_grad_()
        return y * self.w


def example():
    return Model().eval(), (torch.randn(4, 8), torch.randn(4, 8))
