"""Helpers whose every return folds to a constant while dynamo traces (the `is_tracing(x)` of
Hugging Face libraries returns `is_torchdynamo_compiling() or ...`, True under compile): a test
on them folds, so `not is_tracing(mask) and torch.all(mask == 1)` is False and never reads the
mask, and the eager-only branch is dead. A helper that may return something else (a parameter,
or falling off its end) does not fold, and the tensor test behind it breaks."""
import torch
from torch import nn


def is_torchdynamo_compiling():
    try:
        import torch

        return torch.compiler.is_compiling()
    except Exception:
        return False


def is_fx_proxy(x):
    return isinstance(x, torch.fx.Proxy)


def is_tracing(tensor=None):
    tracing = is_torchdynamo_compiling() or torch.jit.is_tracing()
    if tensor is not None:
        tracing |= is_fx_proxy(tensor)
    return tracing


def is_eager():
    return not torch.compiler.is_compiling()


def maybe_tracing(flag):
    if flag:
        return torch.compiler.is_compiling()


class Model(nn.Module):
    def forward(self, x, mask):
        if not is_tracing(mask) and torch.all(mask == 1):
            mask = None
        if is_eager():
            print("eager step")
        if maybe_tracing(True) and (x > 0).any():  # expect: GM101
            x = x * 2
        if mask is not None:
            x = x * mask
        return x


def example():
    mask = torch.ones(4, 8)
    mask[1, 6:] = 0
    return Model().eval(), (torch.randn(4, 8), mask)
