"""A torch.compiler.disable'd function called only from eager code (module level, __init__, a
helper nothing compiled calls), and a local name that shadows it in the region: no break."""
import torch
from torch import nn


@torch.compiler.disable
def describe(t):
    return tuple(t.shape)


SHAPE = describe(torch.ones(2, 2))


def report(model, x):
    return describe(model(x))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.shape = describe(self.lin.weight)

    def forward(self, x):
        describe = torch.relu
        return describe(self.lin(x))


def example():
    return Model().eval(), (torch.randn(4, 8),)
