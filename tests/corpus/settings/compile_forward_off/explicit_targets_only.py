"""With `compile-forward = false`, a module's forward is compiled only when the code compiles it:
here `torch.compile(model)` of an instance does; the other module's forward, which only eager
code runs, is not a region."""
import torch
from torch import nn


class Encoder(nn.Module):
    def forward(self, x):
        if x.mean() > 0:  # expect: GM101
            x = x - x.mean()
        return x


class EagerOnly(nn.Module):
    def forward(self, x):
        print("eager module", x.shape)
        return x


model = Encoder()
compiled = torch.compile(model)


def example():
    return compiled, (torch.randn(4, 8) + 1,)
