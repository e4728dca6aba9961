"""`self.apply_transform(x)` in the forward of a base class runs the override of the compiled
instance's class (virtual dispatch): the subclasses' overrides are compiled code, also through
an intermediate class and when the base method only raises NotImplementedError. A method no
compiled code calls (describe) stays out."""
import torch
from torch import nn


class AugmentBase(nn.Module):
    def forward(self, x):
        x = x * 2
        return self.apply_transform(x)

    def apply_transform(self, x):
        raise NotImplementedError


class IntensityBase(AugmentBase):
    def describe(self, x):
        print("intensity")
        return x


class Jitter(IntensityBase):
    def apply_transform(self, x):
        if x.mean() > 0:  # expect: GM101
            return x + 1
        return x - 1


def example():
    return Jitter().eval(), (torch.randn(4, 8),)
