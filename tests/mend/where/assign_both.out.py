# mend-applicability: safe
import torch


@torch.compile
def gate(x: torch.Tensor):
    h = x * 2
    # pick the activation by the sign of the total
    # positive side
    y = torch.where(h.sum() > 0, torch.relu(h), -h)
    return y + 1


def example():
    return gate, (torch.randn(8),)
