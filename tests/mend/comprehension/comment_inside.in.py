# mend-declined: a comment inside the comprehension
# mend-rules: GM606
# A comment between the comprehension's clauses has no place in the loop that keeps what it
# describes.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "bb", "ccc"]
        self.scale = 0.5
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        widths = [
            len(n) * self.scale
            # the names' lengths, scaled
            for n in self.names
        ]
        h = self.proj(x)
        for _ in range(2):
            torch._dynamo.graph_break()
            h = torch.tanh(h)
        return h * len(widths)


def example():
    return Net(), (torch.randn(2, 4),)
