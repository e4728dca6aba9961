# mend-applicability: safe
# The same store where forward already has a local named like the buffer: the converted tensor
# gets a name of its own, so the local keeps its meaning.
import torch
from torch import nn


class Embedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Buffer(torch.randn(16, 8))
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        pos = torch.arange(x.shape[1])
        self.pos = self.pos.float()
        return self.proj(x) + self.pos[pos]


def example():
    return Embedding(), (torch.randn(2, 5, 8),)
