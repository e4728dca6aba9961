# mend-applicability: safe
import torch


@torch.compile
def expand_heads(keys: torch.Tensor):
    repeats = torch.full((keys.shape[0],), 3)
    return torch.repeat_interleave(keys, repeats, dim=0, output_size=keys.shape[0] * 3)


def example():
    return expand_heads, (torch.randn(4, 8),)
