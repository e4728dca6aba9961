# mend-declined: the comprehension reads the name it is assigned to
# mend-rules: GM606
# The comprehension reads `widths`, the name it is assigned to: the loop would bind it to
# the new, empty list before reading it.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "bb", "ccc"]
        self.scale = 0.5
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        widths = [1.0]
        widths = [w * self.scale for w in widths * len(self.names)]
        h = self.proj(x)
        for _ in range(2):
            torch._dynamo.graph_break()
            h = torch.tanh(h)
        return h * len(widths)


def example():
    return Net(), (torch.randn(2, 4),)
