"""dtype, device and floating-point tests are static: no break."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        if x.dtype == torch.float16:
            x = x.float()
        if x.device.type == "cpu":
            x = x + 1
        if x.is_floating_point():
            x = x * 2
        if x.requires_grad:
            x = x.detach()
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
