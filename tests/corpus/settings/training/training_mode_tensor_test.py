"""`self.training and <tensor test>` in a module left in training mode (reached through a
compiled function, so the oracle does not switch it to eval): `self.training` is True at trace
time and the tensor operand is tested, which breaks."""
import torch
from torch import nn


class Block(nn.Module):
    def forward(self, x):
        x = x * 2
        if self.training and x.abs().max() > 10:  # expect: GM101
            x = x.clamp(-10, 10)
        return x + 1


block = Block().train()


@torch.compile
def step(x):
    return block(x)


def example():
    return step, (torch.randn(4, 8),)
