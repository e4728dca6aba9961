"""Python tests ahead of a tensor test: dynamo evaluates `pixels is not None` and a config value
while tracing, and when they are false `and` stops before the tensor is tested, so nothing
breaks. graphmend reports such a test with the condition it needs (`only_when.condition`); the
oracle checks the calls where the condition holds (pixels given, rope type "dynamic"), which
break, and the expectation is the same line either way."""
import torch
from torch import nn


class Config:
    rope_type = "dynamic"
    image_token_id = 3


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = Config()

    def forward(self, ids, pixels=None):
        x = ids.float()
        if pixels is not None and (ids == self.config.image_token_id).any():  # expect: GM101
            x = x + pixels.sum()
        seq = ids.max() + 1
        if self.config.rope_type != "default" and seq:  # expect: GM101
            x = x * 2
        return x


def example():
    ids = torch.randint(0, 6, (2, 8))
    ids[0, 0] = 3
    return Model().eval(), (ids, torch.randn(2, 4))
