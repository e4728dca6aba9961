"""`if isinstance(preds, dict):` narrows preds away from a tensor in its branch (ultralytics'
Segment26 head): the base class's forward returns a dict in training and `y if self.export else
(y, preds)` otherwise, which the analysis takes for a tensor (the conditional expression's tensor
arm), but where the test holds preds is a dict, and `"one2one" in preds` is a key test that
dynamo traces, not Tensor.__contains__. After the branch preds keeps the kind it had."""

import torch
from torch import nn


class Detect(nn.Module):
    export = False

    def forward(self, x):
        preds = {"boxes": x * 2, "scores": x.sigmoid()}
        if self.training:
            return preds
        y = torch.cat((preds["boxes"], preds["scores"]), 1)
        return y if self.export else (y, preds)


class Segment(Detect):
    def forward(self, x):
        outputs = Detect.forward(self, x)
        preds = outputs[1] if isinstance(outputs, tuple) else outputs
        if isinstance(preds, dict):
            if "one2one" in preds:
                preds["one2one"]["proto"] = x
            else:
                preds["proto"] = x
        return outputs, preds


def example():
    return Segment().eval(), (torch.rand(2, 4),)
