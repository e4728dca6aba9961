# mend-applicability: safe
import torch


@torch.compile
def normalize(scores):
    # scale by the largest magnitude, as attention-score clipping does
    peak = scores.abs().max().item()
    return scores / peak


def example():
    return normalize, (torch.randn(4, 6),)
