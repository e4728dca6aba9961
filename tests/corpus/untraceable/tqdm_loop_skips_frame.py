"""Looping over tqdm(...) breaks at the call (GB0007) and again at the loop's __iter__ (GB0008),
which dynamo cannot resume from: the whole function runs eagerly and the later print is never
reported."""
import torch
from torch import nn
from tqdm import tqdm


class Model(nn.Module):
    def forward(self, x):
        y = x.relu()
        for i in tqdm(range(2), disable=True):  # expect: GM510
            y = y + i
        print("done")
        return y


def example():
    return Model().eval(), (torch.randn(4, 8),)
