"""A model's generate-style method compiled as a bound method, `torch.compile(model.generate)`
(its breaks hold "when `entrylib.Decoder.generate` is compiled" in the package alone)."""
import torch

from entrylib import Decoder

decoder = Decoder()
fast_generate = torch.compile(decoder.generate)


def example():
    return fast_generate, (torch.randn(4, 8),)
