"""Before Python 3.12 a list comprehension runs as a frame of its own: a break inside it (here
`.tolist()` of a tensor) makes dynamo skip the comprehension's frame only. forward breaks at
the comprehension, resumes after it, and its later print breaks again; a second break inside
the same comprehension is never reported (its frame runs eagerly)."""
import torch
from torch import nn


class Net(nn.Module):
    def forward(self, x: torch.Tensor, lengths: torch.Tensor):
        parts = [torch.split(x, lengths.tolist()) for _ in range(2)]  # expect: GM202
        sizes = [lengths.tolist() + [n.item()] for n in lengths]  # expect: GM202
        y = x * 2
        print("after the comprehension")  # expect: GM401
        return y, parts, sizes


def example():
    return Net().eval(), (torch.randn(4), torch.tensor([2, 2]))
