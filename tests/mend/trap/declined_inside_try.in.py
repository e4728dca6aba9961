# mend-declined: inside a try statement
import torch


@torch.compile
def safe_scale(x):
    try:
        if not (x.abs().max() < 100):
            raise ValueError("input out of range")
        y = x / 100
    except ValueError:
        y = torch.zeros_like(x)
    return y


def example():
    return safe_scale, (torch.randn(4),)
