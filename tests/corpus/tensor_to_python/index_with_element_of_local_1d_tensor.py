"""An element of a 1-d tensor made by `torch.arange` or `.flatten()` is a 0-d tensor made in the
graph: indexing with it reads its value ("Data dependent operator"); in the compiled frame itself
dynamo resumes after it (the print after it breaks too).
An element of a tensor of unknown rank (`table[0]`, a row of a 2-d input) is a 1-d index
tensor, advanced indexing, which traces, as does the 1-d tensor used whole."""
import torch


@torch.compile
def pick(h, table):
    order = torch.arange(h.shape[1]).flip(0)
    rows = table[table[0]]
    cols = h[:, order]
    flat = table.flatten()
    first = h[:, flat[1]]  # expect: GM202
    print("after the index")  # expect: GM401
    return rows.sum() + cols.sum() + first.sum() + order[0]


def example():
    return pick, (torch.randn(4, 8), torch.tensor([[1, 0], [0, 1]]))
