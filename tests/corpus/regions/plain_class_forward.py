"""`forward` of a class that is not an nn.Module is not a region; nothing compiled calls it."""
import torch


class Runner:
    def forward(self, x):
        print("not compiled")
        if x.sum() > 0:
            x = x - 1
        return x


@torch.compile
def step(x):
    return x.sin() + 1


def example():
    return step, (torch.randn(4, 8),)
