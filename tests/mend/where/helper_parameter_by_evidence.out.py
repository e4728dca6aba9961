# mend-applicability: safe
# An unannotated parameter of a helper is a tensor by what the code does with it before it
# rebinds it (torch.isinf(h), torch.clamp(h)): the if's update becomes a select.
import torch


def clamp_inf(h):
    h = torch.where(torch.isinf(h).any(), torch.clamp(h, min=-1000, max=1000), h)
    return h


@torch.compile
def step(x):
    y = x * 1e38
    return clamp_inf(y * 10) + 1


def example():
    return step, (torch.randn(4, 8),)
