"""print in reorderable_logging_functions: dynamo defers calls whose arguments are tensors,
constants and format strings (f-strings and str.format included) to after the graph, and
constant keyword arguments (sep, end) are fine on torch 2.13, so nothing breaks."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        print("relu", y, y.dim(), y.shape[0], None)
        print(f"sum {y.sum()}", sep=" | ", end="\n")
        print("{} rows".format(y.shape[0]), y.dtype)
        return y * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
