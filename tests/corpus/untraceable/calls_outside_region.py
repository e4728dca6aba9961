"""Untraceable calls in a helper nothing compiled calls, in __init__ and at module level: no
break."""
import pickle
import random
import time

import torch
import torch._dynamo
from torch import nn

SEED = random.random()


def log_time():
    torch._dynamo.graph_break()
    return time.time(), pickle.dumps(1)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.t0 = time.perf_counter()
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return self.lin(x).relu()


def example():
    return Model().eval(), (torch.randn(4, 8),)
