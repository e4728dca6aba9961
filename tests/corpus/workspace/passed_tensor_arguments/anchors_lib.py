"""Support module: a helper that other modules' compiled code calls with a tensor of strides
(ultralytics' make_anchors): `stride` is an element of that tensor, and Tensor.new_full reads
a tensor fill value with Tensor.item() (GB0033); torch.full takes it without a break. Called
from nowhere in this module, so only the callers in other modules say what `strides` is."""
import torch


def make_anchors(feats, strides, offset=0.5):
    points, stride_tensor = [], []
    for i in range(len(feats)):
        stride = strides[i]
        h, w = feats[i].shape[2:]
        sx = torch.arange(w).type_as(feats[0]) + offset
        sy = torch.arange(h).type_as(feats[0]) + offset
        sy, sx = torch.meshgrid(sy, sx, indexing="ij")
        points.append(torch.stack((sx, sy), -1).view(-1, 2))
        stride_tensor.append(feats[0].new_full((h * w, 1), stride))  # expect: GM202
    return torch.cat(points), torch.cat(stride_tensor)


def scaled(x, factor):
    return torch.full((2,), factor) * x.sum()
