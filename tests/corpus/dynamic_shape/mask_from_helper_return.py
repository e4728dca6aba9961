"""A module-level helper of the file with no return annotation returns a tensor on every path
(`fold(...)` of its argument, `torch.relu(w) * n`): its call is a tensor in the caller, so a
comparison with it is a boolean mask and indexing with that mask is a dynamic-shape operation
(GB0036), as a branch on it is data-dependent. A helper that returns a Python number on some
path (`scale_of`) says nothing."""
import torch
from torch.nn.functional import fold


def window_sum(w, frames):
    stacks = w.unsqueeze(-1).repeat((1, frames)).unsqueeze(0)
    return fold(stacks, (1, 8), kernel_size=(1, 4))


def rectified(w, n):
    return torch.relu(w) * n


def scale_of(w, n):
    if n > 1:
        return 2
    return w.abs().max()


@torch.compile
def overlap(x):
    w = window_sum(x[0], 5).flatten()[: x.shape[1]]
    keep = w > 1e-10
    out = x[:, keep]  # expect: GM301
    if rectified(x, 2).sum() > 0:  # expect: GM101
        out = out * 2
    if scale_of(x, 3) > 1:
        out = out + 1
    return out


def example():
    return overlap, (torch.rand(4, 8),)
