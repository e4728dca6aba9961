# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
from torch import nn


class LongRope(nn.Module):
    """GraphMend's Phi-4 LongRoPE case: the buffer is updated in place, not rebound."""

    def __init__(self):
        super().__init__()
        self.register_buffer("inv_freq", torch.ones(4), persistent=False)
        self.register_buffer("long_inv_freq", torch.full((4,), 0.5), persistent=False)
        self.register_buffer("short_inv_freq", torch.full((4,), 2.0), persistent=False)

    def forward(self, x, position_ids):
        seq_len = torch.max(position_ids) + 1
        if seq_len > 8:
            self.register_buffer("inv_freq", self.long_inv_freq, persistent=False)
        else:
            self.register_buffer("inv_freq", self.short_inv_freq, persistent=False)
        return x * self.inv_freq


def example():
    return LongRope(), (torch.randn(2, 4), torch.arange(12))
