"""The older spellings torch._dynamo.is_compiling() and torch._utils.is_compiling() fold like
torch.compiler.is_compiling(): the guarded tensor branches are dead."""
import torch
import torch._dynamo


@torch.compile
def step(x):
    x = x + 1
    if not torch._dynamo.is_compiling():
        if x.sum() > 0:
            x = x * 2
    if not torch._utils.is_compiling() and x.max() > 1:
        x = x / 2
    return x


def example():
    return step, (torch.randn(4, 8),)
