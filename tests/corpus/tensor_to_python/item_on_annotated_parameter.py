"""`.item()` on a parameter annotated torch.Tensor, inside a loop: the break makes dynamo skip
the frame (the whole function runs eagerly); it is still reported at the .item() line."""
import torch


@torch.compile
def total(x: torch.Tensor, steps: torch.Tensor):
    acc = x * 0
    for _ in range(2):
        acc = acc + x * steps.item()  # expect: GM201
    return acc


def example():
    return total, (torch.randn(4, 8), torch.tensor(3.0))
