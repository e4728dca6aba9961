"""A tensor turned into text: `str(t)` (GB0059 "Failed to trace builtin operator") and `repr(t)`
break and dynamo resumes after them; printf-style `%` formatting of a tensor breaks where dynamo
cannot resume, so the rest of the function runs eagerly (the later `str(h)` is not reached). An
f-string of a tensor and text made of sizes trace."""
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor):
        h = self.proj(x)
        shape_text = str(h.shape) + f"{h.shape[0]}"
        traced_text = f"{h}"
        label = str(h.sum())  # expect: GM202
        shown = repr(h)  # expect: GM202
        width = len(label + shown + shape_text) + len(traced_text)
        summary = "mean %.3f over %d" % (h.mean(), width)  # expect: GM202
        again = str(h)
        return h * len(summary + again)


def example():
    return Head().eval(), (torch.randn(2, 4),)
