"""Support module: an nn.Module base class whose forward calls a method that subclasses in
other modules override (kornia's augmentation bases)."""
import torch
from torch import nn


class AugmentationBase(nn.Module):
    def forward(self, x):
        params = self.generate_parameters(x)
        return self.apply_transform(x, params)

    def generate_parameters(self, x):
        return torch.ones_like(x)

    def apply_transform(self, x, params):
        raise NotImplementedError
