"""torch._dynamo.graph_break() is an explicit break (GB0025)."""
import torch
import torch._dynamo


@torch.compile
def step(x):
    y = x.relu()
    torch._dynamo.graph_break()  # expect: GM502
    return y * 2


def example():
    return step, (torch.randn(4, 8),)
