"""threading.Lock(), threading.current_thread() and threading.get_ident() are C functions dynamo
skips (GB0007); threading.main_thread() is traced."""
import threading

import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        lock = threading.Lock()  # expect: GM501
        y = y * 2
        me = threading.current_thread()  # expect: GM501
        y = y + 1
        ident = threading.get_ident()  # expect: GM501
        main = threading.main_thread()
        return y * (ident > 0) * (me is main) * (lock is not None)


def example():
    return Model().eval(), (torch.randn(4, 8),)
