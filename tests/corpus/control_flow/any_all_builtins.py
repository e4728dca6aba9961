"""The builtins any()/all() over a list of Python booleans fold; any() over a tensor iterates its
rows and tests each row's truthiness, which breaks."""
import torch


@torch.compile
def step(x, y):
    if all([x.dim() == 1, y.dim() == 1]):
        x = x + y
    if any(d > 100 for d in x.shape):
        x = x * 0
    if any(x > 5):  # expect: GM101
        x = x.clamp(max=5)
    return x


def example():
    return step, (torch.randn(6), torch.randn(6))
