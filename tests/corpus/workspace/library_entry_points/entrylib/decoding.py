"""Support module: a model whose generate loop users compile, and its forward."""
import torch
from torch import nn


class Decoder(nn.Module):
    def forward(self, x):
        return torch.relu(x) - 0.5

    def generate(self, x):
        out = self.forward(x)
        if out.sum() > 0:  # expect: GM101
            out = -out
        print("generated", out.shape)  # expect: GM401
        return out
