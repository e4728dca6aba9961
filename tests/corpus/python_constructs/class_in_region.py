"""A class statement inside compiled code cannot be traced (`__build_class__`, GB8977)."""
import torch


class Box:
    def __init__(self, v):
        self.v = v


@torch.compile
def f(t):
    t = t + 1
    class Local:  # expect: GM601
        pass
    b = Box(t)
    return b.v * 2


def example():
    return f, (torch.randn(4),)
