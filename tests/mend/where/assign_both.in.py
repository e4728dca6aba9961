# mend-applicability: safe
import torch


@torch.compile
def gate(x: torch.Tensor):
    h = x * 2
    # pick the activation by the sign of the total
    if h.sum() > 0:
        y = torch.relu(h)  # positive side
    else:
        y = -h
    return y + 1


def example():
    return gate, (torch.randn(8),)
