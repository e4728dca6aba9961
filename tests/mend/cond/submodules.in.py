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
        if h.mean() > 0:
            y = self.up(h)
            # squash the expert's output
            y = torch.relu(y)
        else:
            y = self.down(h)
        return y.sum(-1)


def example():
    return Router(), (torch.randn(2, 4),)
