# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# An assert on tensors (I-BERT's activation statistics: no NaN in the running min and max): the
# test becomes an in-graph assertion, `and` a logical_and. A failure raises RuntimeError (with
# "AssertionError: " before the message) instead of AssertionError, and python -O keeps it.
import torch
from torch import nn


class Observer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        x_act = self.proj(x)
        x_min = x_act.min()
        x_max = x_act.max()
        assert x_max.isnan().sum() == 0 and x_min.isnan().sum() == 0, (
            "NaN detected when computing min/max of the activation"
        )
        return (x_act - x_min) / (x_max - x_min + 1e-6)


def example():
    return Observer().eval(), (torch.randn(4, 8),)
