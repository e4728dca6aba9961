"""`import torch as th`: @th.compile is torch.compile."""
import torch as th


@th.compile
def step(x):
    x = th.sigmoid(x)
    if x.mean() > 0.5:  # expect: GM101
        x = x - 0.5
    return x


def example():
    return step, (th.randn(4, 8),)
