# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# `torch.equal(mask, mask[:, :1, :].expand_as(mask))` as a raise guard: the operands have the
# same shape by construction, so the assertion compares them without a shape test.
import torch
from torch import nn


class SharedMask(nn.Module):
    def forward(self, scores, mask):
        if not torch.equal(mask, mask[:, :1, :].expand_as(mask)):
            raise ValueError("mask must be the same for every query")
        return scores.masked_fill(mask == 0, -1e4).softmax(-1)


def example():
    mask = torch.ones(2, 1, 5).expand(2, 3, 5).clone()
    return SharedMask().eval(), (torch.randn(2, 3, 5), mask)
