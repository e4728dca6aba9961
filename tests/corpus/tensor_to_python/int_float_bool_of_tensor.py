"""int(), float() and bool() of tensors: torch 2.13 reports each as Tensor.item() (GB0124)."""
import torch


@torch.compile
def convert(x):
    y = x.sum(dim=0)
    n = int(y.argmax())  # expect: GM202
    z = y * n
    f = float(z.mean())  # expect: GM202
    w = z + f
    b = bool(w.sum() > 0)  # expect: GM202
    return w * b


def example():
    return convert, (torch.randn(4, 8),)
