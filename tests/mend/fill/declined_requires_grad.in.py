# mend-declined: requires_grad
# mend-rules: GM202
# new_full asks for a tensor that requires grad: filling such a leaf in place raises, so the
# fill-in-place mend is declined.
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("stride", torch.tensor([8.0, 16.0]))

    def forward(self, x):
        w = x.new_full((2, 2), self.stride[0], requires_grad=True)
        return x.sum() * w


def example():
    return Net(), (torch.randn(2, 4),)
