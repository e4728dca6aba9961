"""Python scalars passed in are constants at trace time: no break."""
import torch


@torch.compile
def scale(x: torch.Tensor, factor: float, steps: int, flag: bool):
    if factor > 1.0:
        x = x * factor
    for _ in range(steps):
        x = x + 1
    if flag:
        x = -x
    return x


def example():
    return scale, (torch.randn(4, 8), 2.0, 3, True)
