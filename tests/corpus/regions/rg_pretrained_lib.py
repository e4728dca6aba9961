"""Support module: a mixin of mask helpers and a model base class deriving from it and
nn.Module (the layout of transformers' ModuleUtilsMixin and PreTrainedModel). Subclasses in
other modules call the mixin's methods through self."""
import warnings

import torch
from torch import nn


class MaskHelpersMixin:
    def extended_mask(self, mask, device=None):
        if device is not None:
            warnings.warn("`device` is deprecated", FutureWarning)  # expect: GM403
        return (1.0 - mask[:, None, :]) * -1e4

    def describe_mask(self, mask):
        print("mask", mask.shape)  # never called by compiled code: not a region
        return mask


class PreTrainedModel(nn.Module, MaskHelpersMixin):
    def init_weights(self):
        print("init")
        return self
