"""`torch.compile(fn, mode=...)` inside a builder function, bound to an alias of torch: the
target is a region all the same."""
import torch as th


def loss_fn(pred, target):
    diff = pred - target
    value = diff.pow(2).mean().item()  # expect: GM201
    return diff.pow(2).mean() * value


def build():
    return th.compile(loss_fn, mode="default")


def example():
    return build(), (th.randn(4, 3), th.randn(4, 3))
