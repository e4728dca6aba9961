# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def soft_log(x: torch.Tensor):
    y = torch.log(x) if x.min() > 0 else x - 1
    return y + 1


def example():
    return soft_log, (torch.rand(4) + 0.5,)
