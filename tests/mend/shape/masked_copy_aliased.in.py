# mend-declined: something else holds it (a list, a view, an argument)
# The same masked copy, but the tensor written in place is also held in a list before the copy:
# rebinding the name would leave the list's tensor unchanged, so no mend is offered.
import torch


@torch.compile
def spline_tails(inputs, tail_bound=1.0):
    outside = (inputs < -tail_bound) | (inputs > tail_bound)
    outputs = torch.zeros_like(inputs)
    kept = [outputs]
    outputs[outside] = inputs[outside]
    return kept[0] * 2


def example():
    return spline_tails, (torch.randn(4, 6) * 2,)
