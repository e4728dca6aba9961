"""os.getpid, os.path.exists, pickle.dumps and random.random are skipped functions (GB0007)."""
import os
import pickle
import random

import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        p = os.getpid()  # expect: GM501
        y = y * 2
        e = os.path.exists("/")  # expect: GM501
        y = y + 1
        s = pickle.dumps(1)  # expect: GM501
        y = y - 1
        r = random.random()  # expect: GM501
        return y * (p > 0) * e * len(s) * (r >= 0)


def example():
    return Model().eval(), (torch.randn(4, 8),)
