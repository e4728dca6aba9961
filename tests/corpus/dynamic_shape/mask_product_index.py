"""A product of two boolean masks is a boolean mask (their logical and), so indexing with it
reads a data-dependent number of rows (aten.nonzero, GB0036), as kornia's SOLD2 detector does
with `detections * (inlier_ratio >= t)`. A mask times a float tensor is a float tensor: indexing
with that is not a mask read (its values index rows)."""
import torch
from torch import nn


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.detect_thresh = 0.5
        self.inlier_thresh = 0.25

    def forward(self, candidates, feat):
        detections = torch.mean(feat, dim=-1) > self.detect_thresh
        if self.inlier_thresh > 0:
            ratio = torch.sum(feat > self.detect_thresh, dim=-1).to(feat.dtype) / feat.shape[-1]
            detections = detections * (ratio >= self.inlier_thresh)
        kept = candidates[detections]  # expect: GM301
        weights = (feat > 0.5) * feat
        rows = candidates[weights.long()[:, 0]]
        return kept.sum() + rows.sum()


def example():
    candidates = torch.arange(12).reshape(6, 2)
    return Detector().eval(), (candidates, torch.rand(6, 4))
