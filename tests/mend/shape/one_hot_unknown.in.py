# mend-declined: num_classes unknown
import torch
import torch.nn.functional as F


@torch.compile
def encode(labels: torch.Tensor, scale: torch.Tensor):
    return F.one_hot(labels) * scale


def example():
    return encode, (torch.tensor([0, 2, 1]), torch.randn(1))
