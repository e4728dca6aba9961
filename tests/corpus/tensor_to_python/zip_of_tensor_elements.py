"""`for start, end in zip(starts, ends)` over tensors made in the graph: each name is a 0-d
tensor selected in the graph, and slicing with it reads its value (Pixtral's
generate_block_attention_mask). zip over Python lists of ints stays traced. Dynamo cannot resume
after a slice bound's break inside a loop: it compiles up to the loop's header and reports that
line too (explain: step_unsupported)."""
import torch
from torch import nn


def block_mask(sizes, x):
    n = x.shape[1]
    mask = torch.full((n, n), fill_value=-1.0)
    ends = torch.tensor(sizes).cumsum(-1)
    starts = torch.tensor([0] + sizes[:-1]).cumsum(-1)
    for start, end in zip(starts, ends):  # expect: GM202
        mask[start:end, start:end] = 0  # expect: GM202
    return mask


def plain_mask(sizes, x):
    n = x.shape[1]
    mask = torch.full((n, n), fill_value=-1.0)
    for start, end in zip([0, 2], sizes):
        mask[start:end, start:end] = 0
    return mask


class Model(nn.Module):
    def forward(self, x):
        return x @ plain_mask([2, 4], x) + x @ block_mask([2, 2], x)


def example():
    return Model().eval(), (torch.randn(2, 4),)
