# mend-applicability: safe
# A masked copy into a new tensor like the source (a rational-quadratic spline's tails, as VITS
# writes it): `outputs[m] = inputs[m]` reads inputs[m], whose length depends on the data;
# `outputs = torch.where(m, inputs, outputs)` computes the same tensor. The mask compares inputs,
# so it has inputs' shape.
import torch


@torch.compile
def spline_tails(inputs, tail_bound=1.0):
    inside_interval_mask = (inputs >= -tail_bound) & (inputs <= tail_bound)
    outside_interval_mask = ~inside_interval_mask
    outputs = torch.zeros_like(inputs)
    log_abs_det = torch.zeros_like(inputs)
    outputs = torch.where(outside_interval_mask, inputs, outputs)
    log_abs_det[outside_interval_mask] = 0.0
    return outputs * 2 + log_abs_det


def example():
    return spline_tails, (torch.randn(4, 6) * 2,)
