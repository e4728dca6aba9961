"""A detection head calls another module's helper with its strides, a plain tensor attribute
made in __init__: the helper's parameter is a tensor because compiled code in this module
passes one, so its new_full with an element of it as the fill value breaks there (found
through the workspace: the helper's own module never calls it). A Python number passed to the
other helper makes nothing of it."""
import torch
from torch import nn

from anchors_lib import make_anchors, scaled


class DetectHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.stride = torch.tensor([8.0, 16.0])
        self.proj = nn.Conv2d(4, 4, 1)

    def forward(self, a, b):
        feats = [self.proj(a), self.proj(b)]
        points, strides = make_anchors(feats, self.stride, 0.5)
        return points.sum() + strides.sum() + scaled(a, 2.0).sum()


def example():
    return DetectHead().eval(), (torch.rand(1, 4, 8, 8), torch.rand(1, 4, 4, 4))
