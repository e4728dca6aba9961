"""A block that always leaves ends the function: after `with torch.no_grad(): return ...` (or a
raise inside a torch context manager, which does not swallow it) the rest is dead code dynamo
never traces. A context manager of unknown kind may swallow a raise, so what follows it is
live."""

import contextlib

import torch


@torch.compile
def returns_inside(x: torch.Tensor):
    with torch.no_grad():
        return x + 1
    print("dead")


@torch.compile
def raises_inside(x: torch.Tensor):
    with torch.no_grad():
        if x.shape[0] > 2:
            raise ValueError("big")
        raise ValueError("small")
    print("dead too")


@torch.compile
def suppressed(x: torch.Tensor):
    with contextlib.suppress(ValueError):
        raise ValueError("swallowed")
    print("reached")  # expect: GM401
    return x * 2


def run(x):
    try:
        raises_inside(x)
    except ValueError:
        pass
    return returns_inside(x) + suppressed(x)


def example():
    return run, (torch.randn(3),)
