"""print() inside `with torch.autocast("cpu")`: autocast is a torch context manager that
survives a break, so the break is resumable and reported at the print."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.proj(x)
            print("inside autocast")  # expect: GM401
            h = self.proj(h)
        return h.float()


def example():
    return Model().eval(), (torch.randn(4, 8),)
