"""`torch._check_tensor_all(cond)` reads the condition with Tensor.item() on torch 2.13, so
it breaks the graph like `.item()`, even behind an `isinstance(cond, torch.Tensor)` test (the
form of Hugging Face's compile-friendly checks); `torch._check` of a Python bool is a hint
dynamo keeps."""
import torch
from torch import nn


def compilable_check(cond):
    if isinstance(cond, torch.Tensor):
        torch._check_tensor_all(cond)  # expect: GM201
    else:
        torch._check(cond)


class Model(nn.Module):
    def forward(self, x):
        compilable_check(x.shape[0] == 4)
        compilable_check(x > -100)
        return x * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
