"""fullgraph = True: the print is an error, torch._dynamo.exc.Unsupported raised at the call,
instead of a split graph. graphmend reports it with severity error."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        print("relu", y)  # expect: GM401
        return y * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
