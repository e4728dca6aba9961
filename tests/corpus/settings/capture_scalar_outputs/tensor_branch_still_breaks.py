"""capture_scalar_outputs = True keeps .item() in the graph, but a Python branch on tensor
data still breaks (GB0170 "Data-dependent branching")."""
import torch


@torch.compile
def step(x: torch.Tensor):
    scale = x.abs().max().item()
    y = x / scale
    if y.sum() > 0:  # expect: GM101
        y = y + 1
    return y


def example():
    return step, (torch.randn(4, 8),)
