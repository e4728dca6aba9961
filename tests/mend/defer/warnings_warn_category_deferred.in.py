# mend-applicability: safe
# LayoutLMv3's deprecation warning in forward (transformers 4.52.4's modeling_utils.py): dynamo
# cannot reorder a call with a warning class argument, but it can a function of the file that
# holds the class: the call goes through one.
import warnings

import torch
from torch import nn


class LayoutLMv3Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.word = nn.Embedding(10, 4)

    def forward(self, input_ids, device=None):
        if device is not None:
            warnings.warn(
                "The `device` argument is deprecated and will be removed in v5 of Transformers.",
                FutureWarning,
            )
        return self.word(input_ids)


def example():
    return LayoutLMv3Embeddings(), (torch.tensor([[1, 2, 3]]), "cpu")
