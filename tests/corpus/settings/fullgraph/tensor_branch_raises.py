"""fullgraph = True: a Python branch on tensor data raises Unsupported ("Data-dependent
branching") at the condition; the .item() before it compiles (captured under fullgraph)."""
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
