# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
from torch import nn


class Router(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.up = nn.Linear(4, 4)
        self.down = nn.Linear(4, 4)

    def forward(self, x):
        h = self.norm(x)
        def gm_true_branch(h):
            y = self.up(h)
            # squash the expert's output
            y = torch.relu(y)
            return y
        def gm_false_branch(h):
            y = self.down(h)
            return y
        y = torch.cond(h.mean() > 0, gm_true_branch, gm_false_branch, (h,))
        return y.sum(-1)


def example():
    return Router(), (torch.randn(2, 4),)
