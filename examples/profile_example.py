"""A small model for `graphmend profile`: each of its two blocks calls `print` and its forward
branches on a tensor value, inside compiled code, so torch.compile splits it into several graphs.

    graphmend profile examples/profile_example.py --unsafe-fixes

profiles it twice, each time in a fresh Python process: as written, and with graphmend's mends
applied to a private copy of this file (`--unsafe-fixes` includes the unsafe ones, such as the
mend of the print). The report gives graphs, breaks, compile time, cold-start and steady-state
latency of each, and whether the outputs of the two agree.

The profile entry point is a function without parameters named `graphmend_profile_entry`
(another name with `--entry NAME`) that returns the model (or function) to compile and a tuple
of example inputs (and, optionally, a dict of keyword inputs as a third element). graphmend
seeds torch, random and numpy with 0 before calling it, and calls the model under
`torch.no_grad()`.
"""

import torch
import torch.nn.functional as F
from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.up = nn.Linear(dim, 4 * dim)
        self.down = nn.Linear(4 * dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.gelu(self.up(self.norm(x)))
        print("block activation mean:", h.mean())  # graph break (GM401)
        return x + self.down(h)


class TinyModel(nn.Module):
    def __init__(self, dim: int = 32):
        super().__init__()
        self.first = Block(dim)
        self.second = Block(dim)
        self.head = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.second(self.first(x))
        if x.abs().max() > 1e4:  # branch on a tensor value: graph break (GM101)
            x = x.clamp(-1e4, 1e4)
        return self.head(x)


def graphmend_profile_entry():
    """The model to compile and a tuple of example inputs."""
    model = TinyModel().eval()
    return model, (torch.randn(4, 8, 32),)
