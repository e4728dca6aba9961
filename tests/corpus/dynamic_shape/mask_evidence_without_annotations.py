"""Boolean-mask reads whose operands carry no annotation, known for tensors by what the code does
with them: a parameter passed to `torch.zeros_like` (only a tensor is accepted), a value indexed
by a comparison of itself (`x[x > 0]`: nothing but a tensor takes that index), a parameter
annotated `torch.BoolTensor`, kept a mask through `.to(device)`, and a mask used on another
unannotated parameter. The spline's layout follows the rational-quadratic flows of TTS models."""
import torch
from torch import nn


def spline(inputs, widths, tail_bound=5.0):
    inside = (inputs >= -tail_bound) & (inputs <= tail_bound)
    outside = ~inside
    outputs = torch.zeros_like(inputs)
    outputs[outside] = inputs[outside]  # expect: GM301
    outputs[inside], widths_out = inputs[inside] * 2, widths  # expect: GM301
    return outputs, widths[inside, :]  # expect: GM301


class Layer(nn.Module):
    def forward(self, h: torch.Tensor, token_mask: torch.BoolTensor | None = None):
        if token_mask is None:
            return h
        token_mask = token_mask.to(h.device)
        return h[token_mask].sum() + h[~token_mask].sum()  # expect: GM301


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = Layer()

    def forward(self, x, y, m):
        a = (x * 2)[(x * 2) > 0]  # expect: GM301
        b = y[(y != 0) & (y < 3)]  # expect: GM301
        out, w = spline(x, y.unsqueeze(-1))
        return a.sum() + b.sum() + out + w.sum() + self.layer(x, m)


def example():
    m = torch.zeros(4, 8, dtype=torch.bool)
    m[:, :3] = True
    return Model().eval(), (torch.randn(4, 8), torch.randn(4, 8), m)
