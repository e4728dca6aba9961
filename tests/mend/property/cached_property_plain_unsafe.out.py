# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# A padding size computed once by functools.cached_property (Voxtral's causal convolution):
# before Python 3.12 its first read takes an RLock that dynamo cannot enter, so the whole forward
# runs eagerly. As a plain @property the arithmetic runs at every read, and dynamo traces it.
from functools import cached_property

import torch
from torch import nn


class CausalConv1d(nn.Conv1d):
    @property
    def left_pad(self):
        effective_kernel_size = (self.kernel_size[0] - 1) * self.dilation[0] + 1
        return effective_kernel_size - self.stride[0]

    def forward(self, x):
        x = nn.functional.pad(x, (self.left_pad, 0))
        return super().forward(x)


def example():
    return CausalConv1d(4, 6, kernel_size=3, dilation=2), (torch.randn(2, 4, 10),)
