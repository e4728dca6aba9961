"""os and os.path functions that ask the operating system are C functions dynamo skips
(GB0007); the pure string helpers of os.path, os.getenv and os.environ.get are traced."""
import os
import os.path as osp

import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        cwd = os.getcwd()  # expect: GM501
        y = y * 2
        names = os.listdir(".")  # expect: GM501
        y = y + 1
        isfile = osp.isfile("/")  # expect: GM501
        y = y - 1
        full = os.path.abspath("a")  # expect: GM501
        y = y * 3
        n = os.cpu_count()  # expect: GM501
        base = os.path.basename("a/b.txt")
        stem, ext = osp.splitext(base)
        parent = os.path.dirname("a/b")
        home = os.environ.get("HOME", "") + os.getenv("HOME", "")
        return y * (len(cwd) + len(names) + isfile + len(full) + n + len(stem + ext + parent + home))


def example():
    return Model().eval(), (torch.randn(4, 8),)
