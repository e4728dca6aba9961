# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def normalize(probs):
    valid = probs >= 0
    torch._assert_async(valid.all(), "ValueError: probabilities must be non-negative")
    return probs / probs.sum(-1, keepdim=True)


def example():
    return normalize, (torch.rand(3, 4),)
