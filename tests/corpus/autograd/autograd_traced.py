"""Autograd constructs dynamo traces on torch 2.13: no_grad/enable_grad blocks, detach(),
reading .grad and .is_leaf of an input, register_hook on an intermediate and requires_grad_()
on a tensor made inside: no break."""
import torch


@torch.compile
def step(x):
    with torch.no_grad():
        base = x * 2
    with torch.enable_grad():
        y = x * base
    y.register_hook(lambda g: g * 2)
    d = y.detach()
    g = x.grad
    leaf = x.is_leaf
    fresh = d + 1
    fresh.requires_grad_()
    return y.sum() + d.sum() * (g is None) * leaf


def example():
    return step, (torch.randn(4, 8, requires_grad=True),)
