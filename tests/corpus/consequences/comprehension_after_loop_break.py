"""A break inside a loop makes dynamo skip the frame: it runs forward eagerly and, on Python
3.11, compiles each list/set/dict comprehension of forward as a frame of its own. One that
reads the module and iterates a list or enumerate(...) cannot start there (GB4347, Missing
tp_iternext), before or after the loop. Traced: a generator expression (not compiled apart),
a comprehension over range() or a literal, and one that does not read self."""
import torch
from torch import nn

NAMES = ["a", "b"]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        scales = [self.scale for _ in NAMES]  # expect: GM606
        indexed = {name: self.scale * i for i, name in enumerate(NAMES)}  # expect: GM606
        plain = [name.upper() for name in NAMES]
        ranged = [self.scale for _ in range(2)]
        literal = [self.scale for _ in ("a", "b")]
        total = sum(self.scale for _ in NAMES)
        h = self.proj(x)
        for _ in range(2):
            if h.sum() > 0:  # expect: GM101
                h = h * 0.5
        later = {self.scale for _ in NAMES}  # expect: GM606
        return h * (len(scales) + len(indexed) + len(plain) + len(ranged) + len(literal) + total + len(later))


def example():
    return Net().eval(), (torch.randn(2, 4),)
