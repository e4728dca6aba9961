"""int() of a `.item()` result (a Python number: only the .item() breaks), and a parameter named
`int` that shadows the builtin: int(tensor) through it is an ordinary call, no break."""
import torch


@torch.compile
def f(x, int=lambda v: 2):
    s = x.sum().item()  # expect: GM201
    return x * int(x.sum()) * s


def example():
    return f, (torch.randn(4, 8),)
