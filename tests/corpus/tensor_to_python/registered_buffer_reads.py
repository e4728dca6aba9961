"""A buffer registered in __init__ (`self.register_buffer("name", ...)`) is a tensor in forward:
`.item()` on it and an `if` on a comparison with it break. Traps: a buffer registered as None
tested with `is None`, plain Python attributes set in __init__, arithmetic with a buffer, and
a @property returning static metadata are all traced."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", torch.tensor(2.0))
        self.register_buffer("steps", torch.tensor(5))
        self.register_buffer("missing", None, persistent=False)
        self.limit = 3
        self.proj = nn.Linear(8, 8)

    @property
    def width(self):
        return self.proj.weight.shape[0]

    def factor(self):
        return self.scale.item()  # expect: GM201

    def forward(self, x):
        x = self.proj(x) * self.scale
        if self.missing is None and self.limit > 2 and self.width == 8:
            x = x + 1
        if self.steps > 3:  # expect: GM101
            x = x * 2
        return x / self.factor()


def example():
    return Model().eval(), (torch.randn(4, 8),)
