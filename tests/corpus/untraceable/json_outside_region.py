"""json used at module level, in __init__ and in a helper nothing compiled calls: no break. A
method named dumps on another object is not json."""
import json

import torch
from torch import nn

CONFIG = json.loads('{"width": 8}')


def save_config(path):
    with open(path, "w") as f:
        json.dump(CONFIG, f)


class Codec:
    def dumps(self, v):
        return v * 2


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(CONFIG["width"], 8)
        self.meta = json.dumps({"built": True})
        self.codec = Codec()

    def forward(self, x):
        return self.codec.dumps(self.lin(x))


def example():
    return Model().eval(), (torch.randn(4, 8),)
