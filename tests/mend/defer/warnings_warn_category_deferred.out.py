# mend-applicability: safe
# LayoutLMv3's deprecation warning in forward (transformers 4.52.4's modeling_utils.py): dynamo
# cannot reorder a call with a warning class argument, but it can a function of the file that
# holds the class: the call goes through one.
import warnings

import torch
from torch import nn


def _graphmend_warn_FutureWarning(message):
    warnings.warn(message, FutureWarning, stacklevel=2)


torch._dynamo.config.reorderable_logging_functions.add(_graphmend_warn_FutureWarning)


class LayoutLMv3Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.word = nn.Embedding(10, 4)

    def forward(self, input_ids, device=None):
        if device is not None:
            _graphmend_warn_FutureWarning("The `device` argument is deprecated and will be removed in v5 of Transformers.")
        return self.word(input_ids)


def example():
    return LayoutLMv3Embeddings(), (torch.tensor([[1, 2, 3]]), "cpu")
