"""fullgraph = True: since torch 2.10 fullgraph implies capture_scalar_outputs and
capture_dynamic_output_shape_ops, so .item(), int() and nonzero() compile without error."""
import torch


@torch.compile
def step(x):
    s = x.sum().item()
    n = int(x.max())
    idx = x.nonzero()
    return x * s + n + idx.sum()


def example():
    return step, (torch.randn(4, 8),)
