# mend-declined: bool() of a tensor makes a Python truth value
import torch


@torch.compile
def gate(x: torch.Tensor, flag: torch.Tensor):
    keep = bool(flag)
    return x * keep


def example():
    return gate, (torch.randn(3), torch.tensor(True))
