# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# The drop probability is a tensor (a registered buffer), not a Python number: testing `p > 0`
# first would itself read a tensor, so the safe zero-probability mend is not offered; only the
# eager-only decision is (no layer is dropped under torch.compile; with seed 0 no draw falls
# below 0.05, so the outputs match).
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])
        self.register_buffer("layerdrop", torch.tensor(0.05))

    def forward(self, x):
        for layer in self.layers:
            dropout_probability = torch.rand([])
            if not torch.compiler.is_compiling() and dropout_probability < self.layerdrop:  # skip the layer
                continue
            x = layer(x)
        return x


def example():
    return Decoder().eval(), (torch.randn(4, 8),)
