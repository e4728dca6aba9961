"""warnings.warn behind `if not torch.compiler.is_compiling()` is dead code under compile; a
bare `warnings.warn` with only a category keyword breaks."""
import warnings

import torch


@torch.compile
def step(x):
    x = x.relu()
    if not torch.compiler.is_compiling():
        warnings.warn("eager only")
    x = x * 2
    warnings.warn("fallback", category=RuntimeWarning)  # expect: GM403
    return x


def example():
    return step, (torch.randn(4, 8),)
