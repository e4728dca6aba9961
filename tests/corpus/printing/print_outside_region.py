"""print() at module level, in __init__ and in an uncompiled function: no break."""
import torch
from torch import nn

print("importing the model")


def report(model):
    print("parameters:", sum(p.numel() for p in model.parameters()))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        print("built")

    def forward(self, x):
        return self.proj(x)


def example():
    model = Model().eval()
    report(model)
    return model, (torch.randn(4, 8),)
