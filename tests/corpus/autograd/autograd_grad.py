"""torch.autograd.grad inside compiled code breaks (GB9186: trace_autograd_ops is off), with
the module path or `from torch.autograd import grad`."""
import torch
from torch.autograd import grad


@torch.compile
def step(x):
    y = (x * x).sum()
    (g1,) = torch.autograd.grad(y, x, create_graph=True)  # expect: GM702
    z = (g1 * 3).sum()
    (g2,) = grad(z, x)  # expect: GM702
    return g1 + g2


def example():
    return step, (torch.randn(4, 8, requires_grad=True),)
