"""A branch that an `isinstance(x, torch.Tensor)` test guards, where x is whatever the caller
passed (kornia's RandomResizedCrop: `ratio` is a tuple unless the user gives a tensor): dynamo
knows the type while tracing and takes the branch only for a tensor, so its breaks are
conditional. Here ratio is a tuple, and nothing in those branches breaks; scale is a tensor,
and its branch does. A value the analysis knows for a tensor makes no condition."""
from typing import Tuple, Union

import torch
from torch import nn


class ResizedCrop(nn.Module):
    def __init__(self, ratio: Union[torch.Tensor, Tuple[float, float]] = (0.75, 1.33),
                 scale: Union[torch.Tensor, Tuple[float, float]] = (0.08, 1.0)):
        super().__init__()
        self.ratio = ratio
        self.scale = scale

    def forward(self, x):
        low = float(self.ratio.min()) if isinstance(self.ratio, torch.Tensor) else min(self.ratio)  # expect-conditional: GM202
        if isinstance(self.ratio, torch.Tensor) and self.ratio.numel() == 2:
            high = self.ratio.max().item()  # expect-conditional: GM201
        else:
            high = max(self.ratio)
        if isinstance(self.scale, torch.Tensor):
            top = self.scale.max().item()  # expect: GM201
        else:
            top = max(self.scale)
        y = x.abs()
        if isinstance(y, torch.Tensor):
            y = y * 2
        return y * (low + high + top)


def example():
    return ResizedCrop(scale=torch.tensor([0.5, 1.0])).eval(), (torch.randn(4, 8),)
