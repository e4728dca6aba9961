"""print() with an f-string using a format spec on a Python number and a `%` string: each
call breaks."""
import torch


@torch.compile
def step(x, lr=0.01):
    y = x * lr
    print(f"lr={lr:.3f}")  # expect: GM401
    y = y.relu()
    print("rows %d" % y.shape[0])  # expect: GM401
    return y


def example():
    return step, (torch.randn(4, 8),)
