"""Methods of a random.Random object: dynamo supports random, randint, uniform, randrange,
seed and getstate (their numbers are drawn at run time and fed to the graph, so a branch on
one breaks, GB0170), and breaks on the others ("Unsupported method call", GB0156): sample,
choice, shuffle, gauss... The object is found where it is made: in the function, at module
level, or as the call itself. Another class's `sample` method is traced."""
import random

import torch
from torch import nn

SHARED = random.Random(0)


class Bag:
    def sample(self, k):
        return [1] * k


class Dropper(nn.Module):
    def forward(self, x, seed: int):
        rand = random.Random(seed)
        cut = rand.randrange(3)
        y = x * 2
        if cut > 1:  # expect: GM101
            y = y + 1
        picked = rand.sample(range(10), 2)  # expect: GM501
        first = SHARED.choice([1, 2, 3])  # expect: GM501
        noise = random.Random(1).gauss(0.0, 1.0)  # expect: GM501
        rand.seed(3)
        state = rand.getstate()
        bag = Bag()
        extra = bag.sample(2)
        return y * len(picked) * first + noise + len(extra) + (state is None)


def example():
    return Dropper().eval(), (torch.randn(4, 8), 0)
