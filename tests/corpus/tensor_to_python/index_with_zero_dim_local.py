"""A 0-d index held in a local reads its value where it indexes, as the inline form does
(`row = h.argmax() // 8; h[row]`); a 1-d index tensor in a local does not break."""
import torch


@torch.compile
def step(x: torch.Tensor):
    h = x * 2
    picks = torch.tensor([0, 1])
    rows = h[picks]
    row = h.argmax() // 8
    best = h[row]  # expect: GM202
    return rows.sum() + best.sum()


def example():
    return step, (torch.randn(4, 8),)
