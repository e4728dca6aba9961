# mend-declined: writes an attribute or item
import torch


@torch.compile
def mark(x: torch.Tensor):
    buf = torch.zeros(4)
    if x.sum() > 0:
        buf[x.argmax()] = x.max()
    else:
        buf[x.argmax()] = x.min()
    return buf


def example():
    return mark, (torch.randn(4),)
