"""any()/all() over a generator expression whose elements are tensors: each element's truth
value is tested in Python (data-dependent branching), and dynamo cannot rebuild the half-used
generator to resume, so the rest of the function runs eagerly (the print after it is never
traced). The elements' kind comes from the expression (`torch.isnan(h).any()`) or from the
loop's names (`t > 0` for t in a tuple of tensors); a generator over the shape is static."""
import torch
from torch import nn


def has_nan(x, hs):
    x = x + 1
    if any(torch.isnan(h).any() for h in hs):  # expect: GM101
        x = torch.nan_to_num(x)
    print("checked")
    return x


def all_positive(x, y):
    x = x + 1
    ok = all(t > 0 for t in (x.sum(), y.mean()))  # expect: GM101
    print("positive")
    return x * 2 if ok else x


class Guarded(nn.Module):
    def forward(self, x, y):
        if all(s > 1 for s in x.shape):
            x = x + 2
        x = has_nan(x, [x, y])
        return all_positive(x, y) + 1


def example():
    return Guarded().eval(), (torch.randn(4, 8), torch.randn(4, 8))
