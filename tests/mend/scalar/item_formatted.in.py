# mend-declined: it is formatted into a string
import torch


@torch.compile
def report(x: torch.Tensor):
    total = x.sum().item()
    label = f"total={total:.3f}"
    return x * total, label


def example():
    return report, (torch.randn(3),)
