"""A compile-time constant stored in a local folds where the local is tested, as in
transformers' attention-mask helpers: `is_tracing = torch.jit.is_tracing() or isinstance(m,
torch.fx.Proxy) or is_compiling()` is True under dynamo, so `not is_tracing and <tensor test>`
never evaluates the tensor test. The opposite constant does not hide the test: `eager = not
is_compiling()` is False, so `eager or <tensor test>` evaluates (and breaks on) it."""
import torch
import torch.fx


@torch.compile
def expand(mask, x):
    is_tracing = (
        torch.jit.is_tracing() or isinstance(mask, torch.fx.Proxy) or torch.compiler.is_compiling()
    )
    if not is_tracing and torch.all(mask == 1):
        return x
    y = x * mask
    eager = not torch.compiler.is_compiling()
    if eager or torch.all(mask == 1):  # expect: GM101
        y = y + 1
    return y


def example():
    return expand, (torch.ones(4, 8), torch.randn(4, 8))
