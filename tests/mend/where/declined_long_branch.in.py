# mend-declined: a branch is too long
import torch


@torch.compile
def many(x: torch.Tensor):
    if x.sum() > 0:
        x = x + 0
        x = x + 1
        x = x + 2
        x = x + 3
        x = x + 4
        x = x + 5
        x = x + 6
        x = x + 7
        x = x + 8
        x = x + 9
        x = x + 10
        x = x + 11
        x = x + 12
        x = x + 13
        x = x + 14
        x = x + 15
        x = x + 16
        x = x + 17
        x = x + 18
        x = x + 19
        x = x + 20
        x = x + 21
        x = x + 22
        x = x + 23
        x = x + 24
        x = x + 25
        x = x + 26
        x = x + 27
        x = x + 28
        x = x + 29
        x = x + 30
        x = x + 31
        x = x + 32
    return x


def example():
    return many, (torch.randn(4),)
