"""A module-level `g = torch.compiler.disable(f)` and `torch.compiler.disable(f)(...)` written
inside the region both break where they are called (GB0098). Calling the unwrapped f is
traced."""
import torch
from torch.compiler import disable


def _summary(t):
    return t.abs().max()


summary = torch.compiler.disable(_summary)
quiet_summary = disable(_summary)


class Model(torch.nn.Module):
    def forward(self, x):
        y = x.relu()
        s = summary(y)  # expect: GM507
        y = y / (s + 1)
        q = quiet_summary(y)  # expect: GM507
        y = y + q
        r = torch.compiler.disable(_summary)(y)  # expect: GM507
        return y * r + _summary(y)


def example():
    return Model().eval(), (torch.randn(4, 8),)
