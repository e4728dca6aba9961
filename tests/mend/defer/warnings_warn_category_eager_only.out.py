# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# LayoutLMv3's deprecation warning in forward, inside `try`: dynamo cannot reorder a call with
# a warning class argument, and the safe deferral through a function of the file declines in
# try (deferred to the graph's end, the message would be lost when the graph raised an
# exception the try handles), so the call runs in eager mode only.
import warnings

import torch
from torch import nn


class LayoutLMv3Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.word = nn.Embedding(10, 4)

    def forward(self, input_ids, device=None):
        try:
            if device is not None:
                if not torch.compiler.is_compiling():
                    warnings.warn(
                        "The `device` argument is deprecated and will be removed in v5 of Transformers.",
                        FutureWarning,
                    )
            return self.word(input_ids)
        except IndexError:
            return None


def example():
    return LayoutLMv3Embeddings(), (torch.tensor([[1, 2, 3]]), "cpu")
