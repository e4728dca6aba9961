"""Elements of a tensor a `for` loop iterates over are 0-d tensors made in the graph: passed as
linspace's step count they are read with Tensor.item() ("Data dependent operator", GB0033; in a
loop, so the whole method runs eagerly). The parameter is a tensor because its only caller
passes one. The same loop over a Python list of int pairs traces: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x, shapes: torch.Tensor):
        a = self.from_list(x, [(2, 2), (1, 4)])
        b = self.grid(shapes)
        return a + b

    def from_list(self, x, sizes):
        out = x.sum()
        pos = 0
        for level, (h, w) in enumerate(sizes):
            out = out + torch.linspace(0.5, h - 0.5, h).sum() + x.flatten()[pos : pos + h * w].sum()
            pos += h * w
        return out

    def grid(self, spatial_shapes):
        out = []
        for level, (height, width) in enumerate(spatial_shapes):
            out.append(torch.linspace(0.5, height - 0.5, height))  # expect: GM202
        return torch.cat(out).sum()


def example():
    return Model().eval(), (torch.randn(4, 8), torch.tensor([[2, 2], [1, 4]]))
