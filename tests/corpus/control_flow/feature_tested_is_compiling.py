"""Feature tests around torch.compiler.is_compiling, as libraries write them to support older
torch: timm's `hasattr(torch, 'compiler') and hasattr(torch.compiler, 'is_compiling')` chain of
guarded returns, and kornia's module-level `getattr(torch.compiler, "is_compiling", None) or ...`
alias, called through `bool(...) if alias is not None else False` in a function marked
`@torch.jit.unused`. torch 2.13 has the function, so each helper returns True while dynamo
traces, the tests on them fold, and the eager-only code behind them is dead. A guard on an
attribute torch does not have (`hasattr(torch, "npu")`) falls through to `return False`: that
helper folds to nothing, and the print behind it breaks."""
import torch
from torch import nn

_torch_is_compiling = getattr(torch.compiler, "is_compiling", None) or getattr(torch._dynamo, "is_compiling", None)


def _is_compiling() -> bool:
    if hasattr(torch, "compiler") and hasattr(torch.compiler, "is_compiling"):
        return torch.compiler.is_compiling()
    if hasattr(torch, "_dynamo") and hasattr(torch._dynamo, "is_compiling"):
        return torch._dynamo.is_compiling()
    return False


@torch.jit.unused
def is_compiling() -> bool:
    return bool(_torch_is_compiling()) if _torch_is_compiling is not None else False


def on_npu() -> bool:
    if hasattr(torch, "npu"):
        return torch.compiler.is_compiling()
    return False


class Model(nn.Module):
    def forward(self, x):
        if not _is_compiling():
            print("eager step (timm's helper)")
        if not is_compiling():
            print("eager step (kornia's helper)")
        if not on_npu():
            print("not on an NPU")  # expect: GM401
        return x * 2


def example():
    return Model().eval(), (torch.randn(2, 4),)
