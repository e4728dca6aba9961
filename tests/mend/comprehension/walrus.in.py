# mend-declined: assignment expression
# mend-rules: GM606
# A walrus inside the comprehension binds in forward's scope even now; it is left as written.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "bb", "ccc"]
        self.scale = 0.5
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        widths = [m for n in self.names if (m := len(n) * self.scale) > 0.5]
        h = self.proj(x)
        for _ in range(2):
            torch._dynamo.graph_break()
            h = torch.tanh(h)
        return h * len(widths)


def example():
    return Net(), (torch.randn(2, 4),)
