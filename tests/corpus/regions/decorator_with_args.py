"""@torch.compile(...) with arguments."""
import torch


@torch.compile(backend="eager", dynamic=False, fullgraph=False)
def step(x):
    y = x.cumsum(-1)
    print("cumsum", y[0, -1])  # expect: GM401
    return y


def example():
    return step, (torch.randn(4, 8),)
