"""F.one_hot without num_classes reads the class count from the data (GB0246); with
num_classes=4 it traces."""
import torch
import torch.nn.functional as F


@torch.compile
def step(x: torch.Tensor):
    y = x.relu()
    labels = (y * 3).long().clamp(max=3).flatten()
    a = F.one_hot(labels, num_classes=4)
    b = F.one_hot(labels)  # expect: GM302
    return a.sum() + b.sum()


def example():
    return step, (torch.randn(4, 8),)
