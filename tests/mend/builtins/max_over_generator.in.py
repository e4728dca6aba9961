# mend-applicability: safe
# The highest pyramid level a keypoint uses (kornia's SIFT descriptor): max() over a generator
# expression with default= breaks the graph, and dynamo cannot resume with the generator on the
# stack, so the rest of forward runs eagerly. Over the list comprehension of the same clauses
# the call is traced.
import torch
from torch import nn


class PyramidDescriptor(nn.Module):
    def __init__(self, levels: int = 4):
        super().__init__()
        self.levels = levels
        self.proj = nn.Linear(8, 8)

    def forward(self, x, level_used):
        max_level = max((index for index, used in enumerate(level_used) if used), default=-1)
        smallest = min(map(abs, level_used), key=abs)
        scale = 2.0 ** max_level + smallest
        return self.proj(x) * scale


def example():
    return PyramidDescriptor(), (torch.randn(2, 8), [True, False, True, False])
