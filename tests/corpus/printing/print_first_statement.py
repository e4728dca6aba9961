"""print() as the first statement: the graph before it is empty, explain() keeps no
reason for it; the graph_breaks log still reports the break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        print("forward called")  # expect: GM401
        return x * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
