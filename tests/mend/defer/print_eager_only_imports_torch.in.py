# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# A file that imports names from torch but not torch itself: the eager-only guard needs
# torch.compiler, so the mend imports torch after the module's imports.
from torch import compile, randn


@compile
def scale(x):
    y = x * 2
    print("shape", y.shape)
    return y + 1


def example():
    return scale, (randn(4),)
