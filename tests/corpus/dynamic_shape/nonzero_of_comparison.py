"""`(deg == i).nonzero()` where `deg` comes from a helper whose return kind the analysis does not
know (here, one that hides it behind getattr): a Python bool has no nonzero(), so the comparison
is a tensor computed in the graph, and its nonzero() has a data-dependent shape."""
import torch
from torch import nn


def degree(index, num_nodes):
    out = getattr(torch, "zeros")(num_nodes, dtype=torch.long)
    return out.index_add_(0, index, torch.ones_like(index))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lins = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])

    def forward(self, x, index):
        deg = degree(index, x.shape[0])
        out = x.new_zeros(x.shape)
        idx = (deg == 1).nonzero().view(-1)  # expect: GM301
        out[idx] = self.lins[0](x[idx])
        return out


def example():
    return Model().eval(), (torch.randn(6, 8), torch.tensor([0, 1, 1, 2, 3, 3, 3, 5]))
