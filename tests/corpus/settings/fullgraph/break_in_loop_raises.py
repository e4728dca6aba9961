"""fullgraph = True: a break inside a loop raises at the break itself (there is no frame skip
to fall back to)."""
import torch


@torch.compile
def step(x):
    for i in range(3):
        x = x + i
        torch._dynamo.graph_break()  # expect: GM502
    return x


def example():
    return step, (torch.randn(4, 8),)
