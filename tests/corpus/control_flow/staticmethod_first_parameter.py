"""A @staticmethod's first parameter is an ordinary argument, not self: `mask.dim() == 4` on it
is a static shape test (no break, the transformers `_prepare_4d_causal_attention_mask` pattern),
while a test of its values breaks."""
import torch
from torch import nn


class Masker(nn.Module):
    def forward(self, x, mask):
        return self._prepare(mask, x.shape[-1]) * x

    @staticmethod
    def _prepare(mask: torch.Tensor, length: int):
        if mask is not None and mask.dim() == 4:
            mask = mask[:, 0, 0]
        if mask.sum() == 0:  # expect: GM101
            mask = torch.ones_like(mask)
        return mask[..., :length]


def example():
    return Masker().eval(), (torch.randn(2, 6), torch.ones(2, 6))
