"""A call dynamo cannot trace in the right operand of `and`/`or`: Python evaluates it only when
the left operand lets it, a value the analysis cannot know here (an attribute set in
__init__). The finding says so; with the flag off, as here, nothing breaks."""
from random import random

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, jitter=False, deterministic=True):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.jitter = jitter
        self.deterministic = deterministic

    def forward(self, x):
        if self.jitter and random() < 0.5:  # expect-conditional: GM501
            x = x * 2
        scale = self.deterministic or random()  # expect-conditional: GM501
        return self.proj(x) * scale


def example():
    return Model().eval(), (torch.randn(4, 8),)
