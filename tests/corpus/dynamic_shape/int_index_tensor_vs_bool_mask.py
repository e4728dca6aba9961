"""Indexing with an integer index tensor (argmax, arange, topk indices) keeps static shapes:
no break; indexing with a mask computed by a comparison stored in a local is boolean-mask
indexing (GB0036)."""
import torch


@torch.compile
def step(x):
    idx = x.argmax(dim=1)
    rows = torch.arange(x.shape[0])
    picked = x[rows, idx]
    top = x.topk(2, dim=1).indices
    gathered = torch.gather(x, 1, top)
    keep = x > 0
    kept = x[keep]  # expect: GM301
    return picked.sum() + gathered.sum() + kept.sum()


def example():
    return step, (torch.randn(4, 8),)
