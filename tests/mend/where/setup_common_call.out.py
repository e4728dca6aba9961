# mend-applicability: safe
import torch
from torch import nn


class Proj(nn.Module):
    """GraphMend's common call with a setup statement: the setup runs unconditionally and the
    call, made once, takes the select in the argument that differs."""

    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        h = self.norm(x)
        gm_cond = h.mean() > 0
        t = torch.relu(h) * 2
        y = self.proj(torch.where(gm_cond, t, h))
        return y


def example():
    return Proj(), (torch.randn(3, 4),)
