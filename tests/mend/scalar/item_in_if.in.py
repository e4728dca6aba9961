# mend-declined: it feeds a comparison or Python control flow
import torch


@torch.compile
def clip(x):
    peak = x.abs().max().item()
    if peak > 1.0:
        x = x / peak
    return x


def example():
    return clip, (torch.randn(8),)
