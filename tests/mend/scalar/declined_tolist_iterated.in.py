# mend-declined: builds a Python list
import torch


@torch.compile
def per_row_scale(x: torch.Tensor, counts: torch.Tensor):
    # the list's values decide Python control flow: captured, they would still break there
    sizes = counts.tolist()
    total = 0
    for s in sizes:
        if s > 1:
            total += s
    return x * total


def example():
    return per_row_scale, (torch.randn(3), torch.tensor([1, 2, 3]))
