"""nested_graph_breaks = True does not rescue breaks in loops: a helper that prints, called
in a loop, still makes dynamo skip the caller's frame (graph break in loop); the helper is
compiled on its own and breaks at the print."""
import torch


def log_norm(t):
    t = t * 2
    print("norm", t.norm())  # expect: GM401
    return t + 1


@torch.compile
def step(x):
    for _ in range(2):
        x = log_norm(x)
    return x * 3


def example():
    return step, (torch.randn(4, 8),)
