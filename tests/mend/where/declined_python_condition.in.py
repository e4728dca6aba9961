# mend-declined: part of the condition is not a tensor
import torch


@torch.compile
def gated(x: torch.Tensor, flag):
    if x.sum() > 0 and flag:
        y = x * 2
    else:
        y = x
    return y


def example():
    return gated, (torch.randn(4), True)
