"""Statements after `if <always true>: return` are dead code under torch.compile:
`is_fx_proxy(x) or torch.compiler.is_compiling()` is true whatever the helper returns, so
dynamo never reaches the print after it (transformers' warn_if_padding_and_no_attention_mask
has this form). A return under a test that is not always true leaves the rest live, and so
does a return inside a loop, a try or a with block."""

import torch
from torch import nn


def is_fx_proxy(x):
    return isinstance(x, torch.fx.Proxy)


class Net(nn.Module):
    def skip_when_compiling(self, x):
        if is_fx_proxy(x) or torch.compiler.is_compiling():
            return x
        print("eager only")
        return x + 1

    def skip_when_flag(self, x, flag):
        if flag:
            return x
        print("flag is off")  # expect: GM401
        return x * 2

    def return_in_loop(self, x):
        for _ in range(1):
            return x
        return x - 1

    def forward(self, x):
        x = self.skip_when_compiling(x)
        x = self.skip_when_flag(x, False)
        x = self.return_in_loop(x)
        if torch.compiler.is_compiling():
            return x.relu()
        print("not compiled")
        return x


def example():
    return Net().eval(), (torch.randn(3),)
