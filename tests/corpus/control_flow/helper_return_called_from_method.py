"""A module-level helper called from a method is a plain function: its first parameter is no
`self` (`is_empty(t)`: `t.numel()` is the tensor's size, a number dynamo knows, so the branch on
it traces), while a helper returning a tensor (`energy(t)`) is one in the method, and a branch
on it is data-dependent."""
import torch
from torch import nn


def is_empty(t):
    return t.numel() == 0


def energy(t):
    return t.pow(2).mean()


class Replacer(nn.Module):
    def forward(self, batch):
        out = batch
        for samples in batch:
            if is_empty(samples):
                continue
            out = out + samples.sum()
        if energy(batch) > 1:  # expect: GM101
            out = out / 2
        return out


def example():
    return Replacer(), (torch.randn(3, 4),)
