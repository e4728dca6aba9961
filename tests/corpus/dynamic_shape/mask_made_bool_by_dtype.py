"""A tensor that is boolean by its making, not by a comparison: `torch.zeros(..., dtype=
torch.bool)` (torchaudio's Tacotron2 decoder keeps `finished` so), `x.new_ones(..., dtype=
torch.bool)` and `x.to(torch.bool)`. Indexing with it, or with its inversion, is a
boolean-mask read whose length depends on the data (aten.nonzero, GB0036). The same factories
with an integer dtype make index tensors, which dynamo traces."""
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 1)

    def forward(self, x: torch.Tensor):
        batch_size = x.size(0)
        lengths = torch.zeros([batch_size], dtype=torch.int32)
        finished = torch.zeros([batch_size], dtype=torch.bool)
        gate = self.proj(x)
        lengths[~finished] += 1  # expect: GM301
        finished |= torch.sigmoid(gate.squeeze(1)) > 0.5
        keep = x.new_ones([batch_size], dtype=torch.bool)
        kept = x[keep]  # expect: GM301
        flags = (gate.squeeze(1) * 0).to(torch.bool)
        dropped = x[flags]  # expect: GM301
        order = torch.zeros([batch_size], dtype=torch.long)
        picked = x[order]
        return lengths * 2, kept, dropped, picked


def example():
    return Decoder().eval(), (torch.randn(3, 4),)
