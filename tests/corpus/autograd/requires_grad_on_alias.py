"""`requires_grad_()` on a local that only renames a tensor from outside (`loss = self.zero`, a
buffer) breaks as it does on the buffer itself; once the local is rebound to a tensor made
inside (`acc = acc + x`), it is traced."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("zero", torch.tensor(0.0), persistent=False)

    def forward(self, x):
        loss = self.zero
        loss.requires_grad_()  # expect: GM703
        acc = self.zero
        acc = acc + x.sum()
        acc.requires_grad_()
        return x * 2 + loss + acc


def example():
    return Model().eval(), (torch.randn(4, 8),)
