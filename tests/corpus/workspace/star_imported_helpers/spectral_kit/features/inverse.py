import torch

from ..helpers import *


class Inverse(torch.nn.Module):
    def forward(self, x):
        w = window_sum(x[0], 5).flatten()[: x.shape[1]]
        keep = w > 1e-10
        out = x[:, keep]  # expect: GM301
        if scale_of(x, 3) > 1:
            out = out + 1
        return out
