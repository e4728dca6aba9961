# mend-applicability: safe
import torch


@torch.compile
def positive_energy(x: torch.Tensor):
    energy = torch.where(x > 0, x, 0).sum()  # only the positive part counts
    return energy * 2


def example():
    return positive_energy, (torch.randn(4, 5),)
