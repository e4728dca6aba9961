"""capture_scalar_outputs = True: .item(), int()/float() of a tensor and .tolist() stay in
the graph as unbacked symbols instead of breaking (GB0124 by default)."""
import torch


@torch.compile
def step(x):
    s = x.sum().item()
    n = int(x.max())
    f = float(x.mean())
    rows = x.long().tolist()
    return x * s + n * f + len(rows)


def example():
    return step, (torch.randn(4, 8),)
