"""index_select / integer-tensor indexing stays static (no break); indexing with a mask cast to
bool from a float tensor is boolean-mask indexing (GB0036)."""
import torch


@torch.compile
def step(x, w):
    idx = torch.tensor([0, 2])
    a = x.index_select(0, idx)
    b = x[idx.long()]
    c = x[w.bool()]  # expect: GM301
    return a.sum() + b.sum() + c.sum()


def example():
    return step, (torch.randn(4, 8), (torch.randn(4) > 0).float())
