"""A 0-d tensor made in the graph passed where a torch operator takes an int, found from torch's
operator schemas (tools/gen-int-parameters): `k` of topk, `chunks` of chunk, `shifts` of roll,
the pads of F.pad, `high` of randint, `diagonal` of tril, and `range()` of a tensor. Each is read with Tensor.item()
("Data dependent operator", GB0033). A 0-d tensor that is an input of the graph passed to topk,
and an index tensor passed to index_select, trace."""
import torch
import torch.nn.functional as F
from torch import nn


def top(x: torch.Tensor):
    return x.topk(x.argmax() + 1).values.sum()  # expect: GM202


def chunked(x: torch.Tensor):
    return torch.chunk(x, x.argmax().long() + 1)[0].sum()  # expect: GM202


def rolled(x: torch.Tensor):
    return x.roll(x.argmin()).sum()  # expect: GM202


def padded(x: torch.Tensor):
    return F.pad(x, (0, x.argmax())).sum()  # expect: GM202


def drawn(x: torch.Tensor):
    return torch.randint(0, x.argmax() + 2, (2,)).sum() + x.sum()  # expect: GM202


def lower(x: torch.Tensor):
    return x.view(2, 2).tril(x.argmax() - 3).sum()  # expect: GM202


def counted(x: torch.Tensor):
    s = x.sum()
    for i in range(x.argmax() - 1):  # expect: GM202
        s = s + i
    return s


def kept(x: torch.Tensor, n: torch.Tensor):
    return x.topk(n).values.sum() + x.index_select(0, x.argmax().view(1)).sum()


class IntArguments(nn.Module):
    def forward(self, x, n):
        return (top(x) + chunked(x) + rolled(x) + padded(x) + drawn(x) + lower(x)
                + counted(x) + kept(x, n))


def example():
    return IntArguments().eval(), (torch.tensor([0.5, 3.0, -1.0, 2.0]), torch.tensor(2))
