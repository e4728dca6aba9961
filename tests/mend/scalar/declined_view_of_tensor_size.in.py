# mend-declined: take the int from a shape
import torch


@torch.compile
def regroup(x: torch.Tensor, groups: torch.Tensor):
    # a shape from data: view checks the size against the tensor's own, so capturing it as a
    # symbolic int would only move the break
    return x.view(groups.sum(), -1)


def example():
    return regroup, (torch.randn(4, 6), torch.tensor([1, 1]))
