# mend-declined: torch is imported only under a condition
import importlib.util

if importlib.util.find_spec("torch") is not None:
    # torch imported only under a condition: a setting line after the imports might not find it
    import torch


@torch.compile
def grouped_rows(tokens: torch.Tensor, per_group: torch.Tensor):
    ends = torch.cumsum(per_group, dim=0)
    out = torch.zeros_like(tokens)
    for g in range(per_group.shape[0]):
        end = ends[g]
        out[:end] = tokens[:end] * (g + 1)
    return out


def example():
    return grouped_rows, (torch.randn(5, 2), torch.tensor([2, 3]))
