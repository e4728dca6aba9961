"""A positional table kept as an nn.Buffer and moved by hand in forward (transformers' CTRL:
`self.pos_encoding = self.pos_encoding.to(device=..., dtype=...)`). nn.Module.__setattr__
re-registers the tensor as the buffer and reads its `persistent` attribute, which dynamo
cannot model (GB4841) when the conversion is a no-op and returns the nn.Buffer object itself:
a resumable break, so the print after it breaks too. The same re-assignment of a buffer made
with register_buffer(...), a local copy, and storing a new tensor (arithmetic) are traced."""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos_encoding = nn.Buffer(torch.randn(8, 4), persistent=False)
        self.register_buffer("scale", torch.ones(4), persistent=False)
        self.steps = nn.Buffer(torch.zeros(()), persistent=False)
        self.proj = nn.Linear(4, 4)

    def forward(self, x, position_ids):
        self.scale = self.scale.to(dtype=x.dtype)
        self.steps = self.steps + 1
        pos = self.pos_encoding.to(dtype=x.dtype)
        self.pos_encoding = self.pos_encoding.to(device=x.device, dtype=x.dtype)  # expect: GM608
        h = self.proj(x) + pos[position_ids] * self.scale
        print("after the buffer")  # expect: GM401
        return h


def example():
    return Net().eval(), (torch.randn(2, 3, 4), torch.arange(3).expand(2, 3))
