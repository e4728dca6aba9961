# mend-declined: the value is never used
import torch


@torch.compile
def forward_pass(x: torch.Tensor):
    debug_norm = x.norm().item()
    return x.relu()


def example():
    return forward_pass, (torch.randn(4),)
