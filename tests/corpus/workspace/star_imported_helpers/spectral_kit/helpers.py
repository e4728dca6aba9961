"""Helpers with no return annotation, bound by star imports in the modules that call them."""
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
