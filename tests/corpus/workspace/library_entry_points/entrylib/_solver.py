"""Support module: the solver entry point, and the private step it calls."""
import torch


def solve(y0, steps):
    y = torch.tanh(y0)
    for _ in range(steps):
        y = _step(y)
    return y


def _step(y):
    scale = y.abs().max().item()  # expect: GM201
    return y / (1.0 + scale)
