"""A causal convolution whose left padding is a functools.cached_property (transformers'
voxtral_realtime CausalConv1d). Before Python 3.12 cached_property computes the value under an
RLock that dynamo cannot enter (GB0142): compiled before any eager call, the first read breaks
and dynamo skips the frame, so the print after it is never traced. A plain @property is
inlined."""
from functools import cached_property

import torch
from torch import nn


class CausalConv1d(nn.Conv1d):
    @cached_property
    def left_pad(self):
        return (self.kernel_size[0] - 1) * self.dilation[0] + 1 - self.stride[0]

    @property
    def right_pad(self):
        return 0

    def forward(self, x):
        x = nn.functional.pad(x, (self.left_pad, self.right_pad))  # expect: GM607
        y = super().forward(x)
        print("never traced")
        return y


def example():
    return CausalConv1d(2, 2, 3).eval(), (torch.randn(1, 2, 8),)
