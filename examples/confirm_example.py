"""A small model for `graphmend confirm`: its forward prints and reads a tensor's value with
`.item()` (two graph breaks the example input reaches), and reads another value only when
`debug` is on (a break graphmend predicts that this input never reaches).

    graphmend confirm examples/confirm_example.py

runs `graphmend_profile_entry` once under `torch._dynamo.explain` and says of each predicted
break whether dynamo confirmed it, did not reach it, or traced the line without breaking.
"""

import torch
from torch import nn


class Scaler(nn.Module):
    def __init__(self, dim: int, debug: bool = False):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.debug = debug

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.proj(x))
        print("hidden", h.shape)
        scale = h.mean().item()
        if self.debug:
            peak = h.max().item()
            h = h / peak
        return h * scale


def graphmend_profile_entry():
    return Scaler(8).eval(), (torch.randn(2, 8),)
