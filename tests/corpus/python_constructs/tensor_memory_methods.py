"""Tensor methods about a tensor's memory, which dynamo's fake tensors do not have: storage(),
storage_offset() and is_pinned() return values dynamo cannot put in the graph (GB0208), and it
does not trace resize_() (GB0126); each breaks and dynamo resumes after it. `is_nonzero()` reads
the tensor's value into a Python bool (GB0033). element_size(), is_contiguous() and nbytes are
metadata the fake tensor has: traced."""
import torch
from torch import nn


class MemoryProbe(nn.Module):
    def forward(self, x: torch.Tensor):
        y = x + 1
        offset = y.storage_offset()  # expect: GM612
        y = y * 2
        pinned = x.is_pinned()  # expect: GM612
        y = y + 1 if pinned else y - 1
        legacy = x.storage()  # expect: GM612
        y = y * 3
        buffer = y.clone()
        buffer.resize_(2, 2)  # expect: GM612
        y = y + buffer.sum()
        if y.sum().is_nonzero():  # expect: GM202
            y = y * 4
        return y * (offset + x.element_size() + x.nbytes) if x.is_contiguous() else y


def example():
    return MemoryProbe().eval(), (torch.randn(4),)
