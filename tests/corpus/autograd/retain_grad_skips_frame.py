"""Tensor.retain_grad() breaks (GB0108) and torch 2.13 cannot resume after it: the print before
it is reported, the whole function then runs eagerly and the print after it is never
reported."""
import torch


@torch.compile
def step(x):
    y = x * 2
    print("before")  # expect: GM401
    h = y + 1
    h.retain_grad()  # expect: GM706
    print("after")
    return h.sum()


def example():
    return step, (torch.randn(4, 8, requires_grad=True),)
