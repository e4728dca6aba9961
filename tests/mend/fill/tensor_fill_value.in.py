# mend-applicability: safe
# mend-rules: GM202
# mend-breaks-after: 0
# A tensor fill value: new_full and full_like read it with Tensor.item() (GB0033, a data-dependent
# operator), which breaks the graph, and inside make_anchors' loop makes dynamo skip the frame
# (ultralytics' anchors, with the head's stride buffer). The empty tensor filled in place takes
# the 0-d tensor without reading it: the same values, dtype and device; detach() keeps the
# gradient cut as item() did, reshape(()) takes a one-element tensor.
import torch
from torch import nn


def make_anchors(feats, strides):
    out = []
    dtype = feats[0].dtype
    for i in range(len(feats)):
        stride = strides[i]
        h, w = feats[i].shape[2:]
        out.append(feats[0].new_full((h * w, 1), stride, dtype=dtype))
    return torch.cat(out)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("stride", torch.tensor([8.0, 16.0]))
        self.scale = nn.Parameter(torch.tensor(0.5))

    def forward(self, x):
        a = make_anchors([x, x[:, :, ::2, ::2]], self.stride)
        b = torch.full_like(x, self.stride[0] * self.scale.detach())
        c = x.new_full((2, 3), fill_value=self.stride[1])
        return a, b, c


def example():
    return Head().eval(), (torch.rand(1, 2, 4, 4),)
