"""Sets of tensors in every spelling (`{t}`, `set([a, b])`, set.add, frozenset, set
comprehensions), and getattr with a name passed in, a computed constant or a default, are
traced on torch 2.13: no break."""
import torch
from torch import nn

NAMES = {"act": "relu"}


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x, name):
        y = x + 1
        s1 = {y}
        s2 = set([y, x])
        s3 = set()
        s3.add(y)
        s4 = frozenset([x, y])
        s5 = {t for t in y.chunk(2)}
        n = len(s1) + len(s2) + len(s3) + len(s4) + len(s5) + (x in s2)
        m = getattr(self, name)
        act = getattr(y, NAMES["act"])
        other = getattr(self, "missing", None)
        return m(act()) * n * (other is None)


def example():
    return Model().eval(), (torch.randn(4), "lin")
