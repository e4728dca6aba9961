# mend-declined: the mask is not a one_hot of a known number of classes
# mend-rules: GM301
# The hit indices come from a mask that is no one-hot (a threshold on the router's scores): how
# many indices it has, and whether the body can index each, is not in the code, so looping over
# every index of the mask instead of the hit ones is declined.
import torch
from torch import nn


class ThresholdExperts(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(8, 4)
        self.weight = nn.Parameter(torch.randn(4, 8, 8) * 0.1)

    def forward(self, x):
        scores = self.router(x).softmax(-1)
        with torch.no_grad():
            chosen = (scores > 0.2).transpose(0, 1)
            hit = torch.greater(chosen.sum(dim=-1), 0).nonzero()
        out = torch.zeros_like(x)
        for e in hit:
            e = e[0]
            rows = chosen[e]
            out = out + (x @ self.weight[e]) * rows[:, None] * scores[:, e, None]
        return out


def example():
    return ThresholdExperts().eval(), (torch.randn(6, 8),)
