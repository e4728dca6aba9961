"""The static-shape alternatives to dynamic-shape ops: three-argument torch.where, masked_fill,
one_hot with num_classes, torch.sort/topk, and mask multiplication: no break."""
import torch
import torch.nn.functional as F


@torch.compile
def step(x):
    mask = x > 0
    a = torch.where(mask, x, torch.zeros_like(x))
    b = x.masked_fill(~mask, 0.0)
    labels = (x.abs() * 2).long().clamp(max=3)
    c = F.one_hot(labels, num_classes=4).float()
    d = torch.sort(x, dim=1).values
    e = (x * mask).sum()
    return a.sum() + b.sum() + c.sum() + d.sum() + e


def example():
    return step, (torch.randn(4, 8),)
