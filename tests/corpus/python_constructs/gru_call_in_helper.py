"""An nn.GRU (any import spelling) called from a helper method forward calls breaks there
(GB0014)."""
import torch
import torch.nn as tnn


class Model(tnn.Module):
    def __init__(self, hidden=4):
        super().__init__()
        if hidden > 0:
            self.encoder = tnn.GRU(4, hidden, batch_first=True)

    def encode(self, x):
        out, h = self.encoder(x)  # expect: GM604
        return out

    def forward(self, x):
        return self.encode(x) + 1


def example():
    return Model().eval(), (torch.randn(2, 3, 4),)
