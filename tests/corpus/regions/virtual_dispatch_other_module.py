"""The base class's forward, in another module, calls `self.apply_transform(...)` and
`self.generate_parameters(...)`: this module's overrides are what the compiled instance runs,
so they are compiled code of this module (found through the workspace's subclasses)."""
import torch

from rg_augment_base_lib import AugmentationBase


class RandomBrightness(AugmentationBase):
    def generate_parameters(self, x):
        factor = torch.rand(1).item()  # expect: GM201
        return torch.full_like(x, factor)

    def apply_transform(self, x, params):
        print("brightness")  # expect: GM401
        return x * params

    def unused(self, x):
        print("never compiled")
        return x


def example():
    return RandomBrightness().eval(), (torch.randn(4, 8),)
