"""A tensor passed where a torch operator takes a Python number (the schema's Scalar, with no
Tensor overload), found from torch's operator schemas (tools/gen-int-parameters): `alpha` of
torch.add and Tensor.add, `value` of addcmul, `negative_slope` of F.leaky_relu. Each is read with
Tensor.item() ("Data dependent operator", GB0033), a registered buffer (an input of the graph)
as much as a tensor made in it. Where the operator has a Tensor overload (`mul`, `clamp`'s min)
or the number is a Python float, it traces."""
import torch
import torch.nn.functional as F
from torch import nn


class Tolerances(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("atol", torch.tensor(1e-3))
        self.register_buffer("rtol", torch.tensor(1e-2))

    def forward(self, y):
        bounds = torch.add(self.atol, torch.abs(y), alpha=self.rtol)  # expect: GM202
        scaled = y.add(bounds, alpha=y.amax())  # expect: GM202
        grown = torch.addcmul(scaled, y, y, value=self.rtol)  # expect: GM202
        bent = F.leaky_relu(grown, negative_slope=self.atol)  # expect: GM202
        kept = bent.mul(self.rtol).add(y, alpha=0.5)
        return torch.clamp(kept, min=self.atol)


def example():
    return Tolerances(), (torch.randn(4, 8),)
