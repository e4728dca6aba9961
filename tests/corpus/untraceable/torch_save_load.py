"""torch.save and torch.load are marked as skipped in torch/serialization.py (GB0007), whatever
the import spelling."""
import io
import os
import tempfile

import torch
from torch import save

OUT = io.BytesIO()
WEIGHTS = os.path.join(tempfile.gettempdir(), "graphmend_corpus_weights.pt")
torch.save(torch.ones(8), WEIGHTS)


@torch.compile
def step(x):
    y = x.relu()
    torch.save(y, OUT)  # expect: GM501
    y = y * 2
    save(y, OUT)  # expect: GM501
    y = y + 1
    w = torch.load(WEIGHTS)  # expect: GM501
    return y * w


def example():
    return step, (torch.randn(4, 8),)
