"""In-place view ops (aten ops tagged inplace_view: unsqueeze_, t_, detach_, transpose_, ...) on a
tensor with a source (an argument, a module's parameter or buffer) break the graph (GB0148
"Unsupported function call (delayed)"); the graph_breaks log reports them, explain does not. On
a tensor made inside the compiled code they trace, and so do the out-of-place ops."""
import torch
from torch import nn


class Projection(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4, 4))
        self.register_buffer("table", torch.randn(4, 4))

    def forward(self, x, scale):
        x.unsqueeze_(0)  # expect: GM708
        self.table.t_()  # expect: GM708
        h = x @ self.weight
        h.squeeze_(0)
        h.transpose_(0, 1)
        w = self.weight.detach()
        scale.detach_()  # expect: GM708
        return h.t() @ w * scale


def example():
    return Projection().eval(), (torch.randn(2, 4), torch.tensor(2.0))
