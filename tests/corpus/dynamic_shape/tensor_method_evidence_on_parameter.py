"""An unannotated parameter is not assumed to be a tensor, but a tensor-only method called on
it is evidence: after `mask.long()`, `mask.nonzero(as_tuple=True)` is the dynamic-shape op it
looks like (as in Longformer's _get_global_attn_indices). The evidence is about that name
only: the int `n` next to it still takes a static branch."""
import torch
from torch import nn


class GlobalIndices(nn.Module):
    @staticmethod
    def indices(is_global, n):
        counts = is_global.long().sum(dim=1)
        if n > 2:
            counts = counts + 1
        nonzero = is_global.nonzero(as_tuple=True)  # expect: GM301
        return counts, nonzero

    def forward(self, x):
        counts, nonzero = self.indices(x > 0, 3)
        return x[nonzero].sum() + counts.sum()


def example():
    return GlobalIndices().eval(), (torch.randn(4, 8),)
