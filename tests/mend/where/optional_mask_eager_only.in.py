# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# A padding mask dropped when it masks nothing (FSMT's make_padding_mask): `if not m.any()` is
# data-dependent. In eager mode only: under torch.compile the mask is kept, and masking nothing
# gives the same scores as no mask.
import torch
from torch import nn


def make_padding_mask(input_ids, padding_idx=1):
    padding_mask = input_ids.eq(padding_idx)
    if not padding_mask.any():
        padding_mask = None
    return padding_mask


class Scores(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 4)

    def forward(self, input_ids):
        h = self.embed(input_ids)
        scores = h @ h.transpose(-1, -2)
        padding_mask = make_padding_mask(input_ids)
        if padding_mask is not None:
            scores = scores.masked_fill(padding_mask[:, None, :], -1e4)
        return scores.softmax(-1)


def example():
    return Scores(), (torch.tensor([[2, 3, 4, 5], [6, 7, 8, 9]]),)
