# mend-declined: inside try or with
# mend-rules: GM606
# Inside try: when an item raises and the exception is caught, the loop would leave
# `widths` bound to the items built so far, where the comprehension left it as it was.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "bb", "ccc"]
        self.scale = 0.5
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        widths = []
        try:
            widths = [len(n) / self.scale for n in self.names]
        except ZeroDivisionError:
            pass
        h = self.proj(x)
        for _ in range(2):
            torch._dynamo.graph_break()
            h = torch.tanh(h)
        return h * len(widths)


def example():
    return Net(), (torch.randn(2, 4),)
