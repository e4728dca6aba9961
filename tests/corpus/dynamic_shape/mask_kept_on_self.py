"""A boolean mask a method keeps on self (`self.nonzero = self.w_sum > 1e-10`, under a test that
it is not cached yet, as spectrogram inverses write it) is a mask where the method reads it
back: indexing with it is a dynamic-shape operation (GB0036). What the method assigns to an
attribute of self has the assigned kind for the rest of the method."""
import torch
from torch import nn


class OverlapAdd(nn.Module):
    def forward(self, frames: torch.Tensor, refresh: bool = True):
        if not hasattr(self, "w_sum") or refresh:
            self.w_sum = frames.pow(2).sum(0)
            self.nonzero = self.w_sum > 1e-10
        out = frames.clone()
        out[:, self.nonzero] = out[:, self.nonzero] / self.w_sum[self.nonzero]  # expect: GM301
        self.scale = frames.shape[0] * 2
        if self.scale > 2:
            out = out * 2
        return out


def example():
    return OverlapAdd(), (torch.rand(3, 5),)
