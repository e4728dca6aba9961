"""With `training = true`, `self.training` folds to True: the training-only branch on a tensor
is traced and breaks, while the eval-only one is dead code for dynamo."""
import torch
from torch import nn


class Regularised(nn.Module):
    def forward(self, x):
        if self.training:
            if x.std() > 1.0:  # expect: GM101
                x = x / x.std()
        else:
            print("eval only", x.sum())
        return x * 2


def example():
    return Regularised(), (torch.randn(4, 8) * 3,)
