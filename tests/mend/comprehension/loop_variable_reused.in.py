# mend-declined: a loop variable of the comprehension is also a variable of the function
# mend-rules: GM606
# The loop would leave `n` bound, and forward reads its own `n` later: as a loop the
# comprehension would overwrite it.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "bb", "ccc"]
        self.scale = 0.5
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        n = 2
        widths = [len(n) * self.scale for n in self.names]
        widths = widths[:n]
        h = self.proj(x)
        for _ in range(2):
            torch._dynamo.graph_break()
            h = torch.tanh(h)
        return h * len(widths)


def example():
    return Net(), (torch.randn(2, 4),)
