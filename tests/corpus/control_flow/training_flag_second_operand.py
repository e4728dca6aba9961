"""`self.gradient_checkpointing and self.training` in eval mode: `self.training` folds to False,
so the whole test is false whatever the first operand is, and the body (a logger call and a
`requires_grad` store, both breaks when traced) never runs. Not so with a tensor first: its
truth value breaks before the flag counts."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.gradient_checkpointing = False
        self.use_cache = True

    def forward(self, x):
        bias = torch.zeros(4, 8)
        if self.gradient_checkpointing and self.training:
            logger.warning("use_cache=True is incompatible with gradient checkpointing")
            bias.requires_grad = True
        if self.use_cache and not self.training:
            x = x + 1
        if x.mean() > 0 and self.training:  # expect: GM101
            logger.warning("training step")
        return x + bias


def example():
    return Model().eval(), (torch.randn(4, 8),)
