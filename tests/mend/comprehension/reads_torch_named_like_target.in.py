# mend-applicability: safe
# mend-rules: GM606
# mend-breaks-after: 1
# A break inside a loop makes dynamo skip forward's frame; on Python 3.11 each comprehension
# that holds torch (it reads a tensor of forward, or names a torch module) is compiled apart and
# breaks (GB4347). Each is assigned to a name that only an attribute inside it spells
# (`relu = [torch.relu(o) ...]`, `shape = [o.shape ...]`): no variable of that name is read, so
# the plain loop that builds it in forward's own frame is safe.
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor):
        outs = [self.proj(x), x]
        for _ in range(2):
            torch._dynamo.graph_break()
            x = torch.tanh(x)
        relu = [torch.relu(o) for o in outs]
        gelu = [F.gelu(o, approximate="tanh") for o in outs]
        shape = [o.shape[0] + x.shape[0] for o in outs]
        return x + relu[0] + gelu[1] + sum(shape)


def example():
    return Net(), (torch.randn(2, 4),)
