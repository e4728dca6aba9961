"""print() in a helper that a @torch.compile function calls: dynamo reports the break inside
the helper, not at the call site."""
import torch


def report(t):
    print("norm", t.norm())  # expect: GM401
    return t * 2


@torch.compile
def step(x):
    x = torch.relu(x)
    x = report(x)
    return x + 1


def example():
    return step, (torch.randn(4, 8),)
