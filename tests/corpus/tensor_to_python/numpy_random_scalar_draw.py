"""A NumPy random draw of one number (no size) breaks with GB0033 "Data dependent operator"
whether it is used or not: dynamo runs np.random on tensors and reads the NumPy scalar back from
the data. A draw with a size stays an array in the graph (torch 2.13). The LayerDrop pattern:
the draw inside the loop over layers makes dynamo skip the frame."""
import numpy as np
import torch
from numpy.random import uniform
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(2)])
        self.layerdrop = 0.1

    def forward(self, x):
        for layer in self.layers:
            dropout_probability = np.random.uniform(0, 1)  # expect: GM202
            skip = self.training and (dropout_probability < self.layerdrop)
            if not skip:
                x = layer(x)
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()

    def forward(self, x):
        noise = torch.from_numpy(np.random.uniform(0, 1, size=(8,))).float()
        scale = torch.from_numpy(np.random.rand(8)).float()
        x = x * noise + scale
        jitter = uniform()  # expect: GM202
        x = x + 1
        unused = np.random.randint(0, 5)  # expect: GM202
        return self.encoder(x * 2)


def example():
    return Model().eval(), (torch.randn(4, 8),)
