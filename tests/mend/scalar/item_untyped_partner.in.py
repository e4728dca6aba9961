# mend-declined: it is used in arithmetic with a value not known to be a tensor
import torch


@torch.compile
def blend(x, gate: torch.Tensor):
    # x carries no annotation: it may be a Python number, which a tensor would change
    weight = gate.sigmoid().mean().item()
    return x * weight


def example():
    return blend, (torch.randn(4), torch.randn(2))
