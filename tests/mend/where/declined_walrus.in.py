# mend-declined: binds a name with `:=`
import torch


@torch.compile
def keep(x: torch.Tensor):
    if x.sum() > 0:
        y = (t := x * 2) + 1
    else:
        y = x - 1
    return y


def example():
    return keep, (torch.randn(4),)
