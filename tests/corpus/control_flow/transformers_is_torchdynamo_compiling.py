"""A transformers-style `is_torchdynamo_compiling()` helper (a try/except around
torch.compiler.is_compiling) is inlined and folds to True: the guarded tensor branch is dead."""
import torch
from torch import nn


def is_torchdynamo_compiling():
    try:
        import torch

        return torch.compiler.is_compiling()
    except Exception:
        try:
            import torch._dynamo as dynamo

            return dynamo.is_compiling()
        except Exception:
            return False


class Model(nn.Module):
    def forward(self, x):
        x = x * 2
        if not is_torchdynamo_compiling() and (x > 100).any():
            raise ValueError("overflow")
        if not is_torchdynamo_compiling():
            if x.sum() > 0:
                x = x + 1
        return x - 1


def example():
    return Model().eval(), (torch.randn(4, 8),)
