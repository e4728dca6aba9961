"""print() of an f-string that formats a tensor."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.softmax(-1)
        print(f"probs {y.shape}")  # expect: GM401
        return y


def example():
    return Model().eval(), (torch.randn(4, 8),)
