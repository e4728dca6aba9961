"""`.item()` in the `else` branch of a try: the else block is outside the protected region."""
import torch


@torch.compile
def step(x):
    try:
        y = x * 2
    except RuntimeError:
        y = x
    else:
        s = y.sum().item()  # expect: GM201
        y = y / s
    return y


def example():
    return step, (torch.randn(4, 8),)
