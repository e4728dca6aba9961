# mend-applicability: safe
# LayerDrop with the probability off (0.0, the default of most transformers configs): a draw of
# torch.rand lies in [0, 1), so it is never below a probability <= 0, and testing `p > 0` first
# changes nothing but lets `and` stop before the tensor; the draw is still made, so the random
# stream is the same. Dynamo reads the module's float attribute as a constant: no break.
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])
        self.layerdrop = 0.0

    def forward(self, x):
        for layer in self.layers:
            dropout_probability = torch.rand([])
            if dropout_probability < self.layerdrop:  # skip the layer
                continue
            x = layer(x)
        return x


def example():
    return Decoder().eval(), (torch.randn(4, 8),)
