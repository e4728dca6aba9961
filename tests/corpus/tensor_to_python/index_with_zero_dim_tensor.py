"""Indexing with a 0-d integer tensor (`h[h.argmax() // 8]`) reads its value
(aten._local_scalar_dense, GB0033) and breaks; indexing with a 1-d index tensor does not."""
import torch


@torch.compile
def step(x):
    h = x * 2
    rows = h[torch.tensor([0, 1])]
    best = h[h.argmax() // 8]  # expect: GM202
    return rows.sum() + best.sum()


def example():
    return step, (torch.randn(4, 8),)
