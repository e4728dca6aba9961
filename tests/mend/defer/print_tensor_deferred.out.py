# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
from torch import nn
torch._dynamo.config.reorderable_logging_functions.add(print)


class Scaler(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        y = self.proj(x)
        print("projected:", y)
        return y.relu()


def example():
    return Scaler(), (torch.randn(2, 4),)
