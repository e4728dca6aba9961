"""nested_graph_breaks = True: a print in a called helper breaks once and dynamo resumes
inside the helper (2 graphs instead of 4); the reported line is the print in the helper."""
import torch


def log_norm(t):
    t = t * 2
    print("norm", t.norm())  # expect: GM401
    return t + 1


@torch.compile
def step(x):
    y = x + 1
    y = log_norm(y)
    return y * 3


def example():
    return step, (torch.randn(4, 8),)
