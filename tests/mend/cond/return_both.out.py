# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3, 3)

    def forward(self, x: torch.Tensor):
        def gm_true_branch(x):
            h = self.proj(x)
            return h * 2
        def gm_false_branch(x):
            return self.proj(-x)
        return torch.cond(x.sum() > 0, gm_true_branch, gm_false_branch, (x,))


def example():
    return Head(), (torch.randn(2, 3),)
