"""Assigning Tensor.requires_grad inside compiled code breaks (GB0206 "setattr() on
Tensor.requires_grad"), on an argument and on a tensor made inside."""
import torch


@torch.compile
def step(x, bias):
    y = x.relu()
    bias.requires_grad = True  # expect: GM704
    y = y + bias
    w = torch.zeros(8)
    w.requires_grad = True  # expect: GM704
    return y * 2, w


def example():
    return step, (torch.randn(4, 8), torch.zeros(8))
