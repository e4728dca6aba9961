# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def scale(x):
    y = x * 2
    if not torch.compiler.is_compiling():
        print("scaled", y.shape)
    return y + 1


def example():
    return scale, (torch.randn(4),)
