# mend-applicability: safe
# `.tolist()` whose list is only measured: len() of it is the tensor's first size, which dynamo
# knows without reading the values.
import torch


@torch.compile
def per_column_scale(x):
    counts = (x > 0).sum(0)
    n = counts.shape[0]
    return x * n + counts


def example():
    return per_column_scale, (torch.randn(4, 6),)
