"""A parameter annotated `Optional[torch.Tensor]` that the code only ever tests for truth and
passes on by keyword is a flag (`output_attentions` in several Hugging Face attention layers):
callers pass a bool, dynamo folds the test, nothing breaks. A parameter with the same annotation
that the code also computes with is a tensor, and testing its truth breaks."""
from typing import Optional

import torch
from torch import nn


class Attention(nn.Module):
    def forward(
        self,
        h: torch.Tensor,
        output_attentions: Optional[torch.Tensor] = None,
        gate: Optional[torch.Tensor] = None,
    ):
        weights = h.softmax(-1)
        outputs = (h, weights) if output_attentions else (h, None)
        if gate is not None and gate.sum():  # expect: GM101
            h = h * gate
        return outputs[0] + h


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, x, gate):
        return self.attn(x, output_attentions=False, gate=gate)


def example():
    return Model().eval(), (torch.randn(2, 4), torch.ones(2, 4))
