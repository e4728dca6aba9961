"""A `match` on x.dim() folds (no break); an `if` with an assignment expression on a tensor
value breaks at the `if`."""
import torch


@torch.compile
def step(x):
    match x.dim():
        case 1:
            x = x.unsqueeze(0)
        case 2:
            x = x * 2
        case _:
            x = x.flatten(1)
    if (s := x.sum()) > 0:  # expect: GM101
        x = x / s
    return x


def example():
    return step, (torch.randn(4, 8),)
