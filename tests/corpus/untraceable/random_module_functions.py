"""The random module's functions are methods of its hidden Random instance, and dynamo skips
the module's file (GB0007): choice, sample, shuffle, gauss and the rest break where they are
called. randint, uniform and randrange are the exceptions: dynamo draws them at run time and
feeds the numbers to the graph (PyTorch Geometric's negative sampling calls random.sample)."""
import random

import torch
from torch import nn


class Sampler(nn.Module):
    def forward(self, x):
        y = x.relu()
        picked = random.sample(range(10), 3)  # expect: GM501
        y = y * len(picked)
        first = random.choice([1, 2, 3])  # expect: GM501
        y = y + first
        order = [0, 1, 2]
        random.shuffle(order)  # expect: GM501
        y = y - order[0]
        noise = random.gauss(0.0, 1.0)  # expect: GM501
        bits = random.getrandbits(4)  # expect: GM501
        k = random.randint(1, 3)
        u = random.uniform(0.0, 1.0)
        r = random.randrange(5)
        return y * k + u + r + noise + bits


def example():
    return Sampler().eval(), (torch.randn(4, 8),)
