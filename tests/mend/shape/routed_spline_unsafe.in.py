# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# A spline applied inside an interval only (VITS's rational-quadratic flow): the elements the
# range mask holds, with their bin parameters (`w[m, :]`), go through a function defined on the
# interval, and both outputs are stored back under the mask. Running the function on every
# element needs values it accepts: the elements outside the range are fed the input clamped into
# it (the function rejects the others), and torch.where keeps the masked ones. Equal when the
# function works element by element, so the mend is unsafe.
import torch
from torch import nn


def _interval_map(inputs, widths, tail_bound):
    if not (inputs.abs() <= tail_bound).all():
        raise ValueError("Input to a transform is not within its domain")
    weights = torch.softmax(widths, dim=-1)
    shift = (weights * torch.linspace(0.0, 1.0, widths.shape[-1])).sum(-1)
    room = tail_bound - inputs.abs()
    outputs = inputs + torch.log1p(room) * shift
    log_abs_det = torch.log(room + 1.0) - shift
    return outputs, log_abs_det


def _bounded_spline(inputs, widths, tail_bound=2.0):
    inside = (inputs >= -tail_bound) & (inputs <= tail_bound)
    outputs = inputs.clone()
    log_abs_det = torch.zeros_like(inputs)
    outputs[inside], log_abs_det[inside] = _interval_map(
        inputs=inputs[inside],
        widths=widths[inside, :],
        tail_bound=tail_bound,
    )
    return outputs, log_abs_det


class SplineFlow(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4 * 3)

    def forward(self, hidden_states: torch.Tensor):
        widths = self.proj(hidden_states).reshape(*hidden_states.shape, 3)
        outputs, log_abs_det = _bounded_spline(hidden_states * 3, widths)
        return outputs + log_abs_det


def example():
    return SplineFlow().eval(), (torch.randn(2, 5, 4),)
