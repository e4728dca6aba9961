# mend-applicability: safe
# mend-rules: GM606
# mend-breaks-after: 1
# A break inside a loop makes dynamo skip forward's frame; on Python 3.11 each comprehension
# that reads the module and iterates a list attribute is compiled apart and breaks (GB4347).
# The list comprehension's clauses become nested for and if statements in their order, the set
# comprehension a set built with add, and the returned dict comprehension a fresh local that is
# returned (its key, a loop variable, is the same evaluated after the value).
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "bb", "ccc"]
        self.sizes = [1, 2, 3]
        self.scale = 0.5
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        pairs = []
        for n in self.names:
            if len(n) > 1:
                for s in self.sizes:
                    if s != len(n):
                        pairs.append((n, s * self.scale))
        widths = set()
        for n in self.names:
            widths.add(len(n) * self.scale)
        h = self.proj(x)
        for _ in range(2):
            torch._dynamo.graph_break()
            h = torch.tanh(h)
        h = h * (len(pairs) + sum(widths))
        gm_dict = {}
        for name in self.names:
            gm_dict[name] = h * self.scale
        return gm_dict


def example():
    return Net(), (torch.randn(2, 4),)
