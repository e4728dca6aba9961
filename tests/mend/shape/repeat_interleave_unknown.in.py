# mend-declined: output_size unknown
import torch


@torch.compile
def expand_by_counts(x: torch.Tensor, counts: torch.Tensor):
    return torch.repeat_interleave(x, counts) * 2


def example():
    return expand_by_counts, (torch.randn(3), torch.tensor([2, 0, 1]))
