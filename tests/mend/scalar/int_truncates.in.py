# mend-declined: int() truncates toward zero
import torch


@torch.compile
def bucket_scale(x: torch.Tensor, level: torch.Tensor):
    steps = int(level)
    return x * steps


def example():
    return bucket_scale, (torch.randn(3), torch.tensor(2.7))
