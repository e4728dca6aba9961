"""`not <tensor>` used as a value needs the tensor's data (GB0033); dynamo cannot resume after
it and runs the whole function eagerly. `not` on Python values is folded."""
import torch


@torch.compile
def f(t, flag=False):
    t = t + 1
    skip = not flag
    small = not t.shape[0] > 2
    z = not (t > 0).all()  # expect: GM104
    if skip and not small:
        t = t * 2
    return t, z


def example():
    return f, (torch.randn(4),)
