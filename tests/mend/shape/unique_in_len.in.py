# mend-declined: the operator's output size depends on the data
import torch


@torch.compile
def distinct_count(ids: torch.Tensor, x: torch.Tensor):
    return x * len(torch.unique(ids))


def example():
    return distinct_count, (torch.tensor([1, 1, 4]), torch.randn(2))
