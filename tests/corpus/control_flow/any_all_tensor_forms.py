"""any()/all() break wherever the iterated value holds tensors: all() over a tensor in an `if`,
any() over a comparison used as a value, and any() over a list whose first element is a tensor
test. any() over a list of Python bools, all() over a generator of shape tests and any() over a
list of static tests fold."""
import torch


@torch.compile
def step(x, y):
    flags = [True, False]
    if any(flags):
        x = x + 1
    if all(s > 1 for s in x.shape):
        x = x + 2
    if any([x.shape[0] > 2, y.dim() == 1]):
        x = x + 3
    z = x.abs().sum(-1)
    if all(z):  # expect: GM101
        x = x * 4
    x = x + 1
    b = any(y < -100)  # expect: GM101
    x = x + 2
    if any([x.sum() > 0, True]):  # expect: GM101
        x = x - 1
    return x


def example():
    return step, (torch.randn(6, 2), torch.randn(6))
