# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# LayerDrop as transformers models write it: a fresh random draw compared with the drop
# probability decides whether a layer runs. No select fits a `continue`; the test is taken in
# eager mode only, so under torch.compile no layer is dropped (the draws stay, so the random
# stream is the same; with seed 0 no draw falls below 0.05, so the outputs match). The
# enclosing `if self.layerdrop > 0.0:` (transformers 5's form) already skips the test when the
# probability is 0, so the safe zero-probability mend would change nothing and is not offered.
import torch
from torch import nn


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(3)])
        self.layerdrop = 0.05

    def forward(self, x):
        for layer in self.layers:
            to_drop = False
            if self.layerdrop > 0.0:
                dropout_probability = torch.rand([])
                if not torch.compiler.is_compiling() and dropout_probability < self.layerdrop:  # skip the layer
                    to_drop = True
            if not to_drop:
                x = layer(x)
        return x


def example():
    return Decoder().eval(), (torch.randn(4, 8),)
