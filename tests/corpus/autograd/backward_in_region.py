"""loss.backward() inside compiled code breaks on torch 2.13 (GB0123: trace_autograd_ops is
off; 2.14 traces it by default). Dynamo resumes after it, so the later print is reported too."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 1)

    def forward(self, x):
        loss = self.lin(x).pow(2).mean()
        loss.backward()  # expect: GM701
        print("loss", loss)  # expect: GM401
        return loss.detach()


def example():
    return Model().eval(), (torch.randn(4, 8),)
