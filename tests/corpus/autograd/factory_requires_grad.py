"""Tensor factories called with requires_grad=True inside compiled code break (GB0225);
requires_grad=False is traced."""
import torch


@torch.compile
def step(x):
    y = x.relu()
    a = torch.zeros(8, requires_grad=True)  # expect: GM705
    y = y + a
    b = torch.ones_like(y, requires_grad=True)  # expect: GM705
    y = y * b
    c = torch.tensor([1.0], requires_grad=True)  # expect: GM705
    d = torch.randn(8, requires_grad=False)
    return y * c + d


def example():
    return step, (torch.randn(4, 8),)
