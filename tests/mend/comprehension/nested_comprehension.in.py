# mend-declined: a comprehension inside it would become a frame of the function
# mend-rules: GM606
# The comprehension inside reads the module and iterates a list too: as a loop, the outer one
# would leave the inner one a frame of forward's own, which dynamo compiles apart and which
# breaks there instead (checked: 2 breaks before, 2 after), so nothing would be gained.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "bb", "ccc"]
        self.scale = 0.5
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        widths = {n: [len(n) * self.scale for _ in self.names] for n in self.names}
        h = self.proj(x)
        for _ in range(2):
            torch._dynamo.graph_break()
            h = torch.tanh(h)
        return h * len(widths)


def example():
    return Net(), (torch.randn(2, 4),)
