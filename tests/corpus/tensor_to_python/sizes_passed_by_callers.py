"""A parameter without annotation that every caller in the file passes a tensor it computed:
inlined into the caller's graph, the callee's use of it as an int reads its data. A rotary
embedding's `seq_len=cache_position[-1] + 1` given to `torch.arange`, reached through the
submodule the parent's __init__ makes (phimoe's layout), and a channel count passed as
`torch.IntTensor([...])` to a module-level helper that slices with it (VITS's
fused_add_tanh_sigmoid_multiply). A size the caller passes as a Python int stays traced."""
import torch
from torch import nn


def fused(input_a, input_b, num_channels):
    in_act = input_a + input_b
    return torch.tanh(in_act[:, :num_channels])  # expect: GM202


def halves(x, width):
    return x[:, :width]


class Rotary(nn.Module):
    def forward(self, x, seq_len=None):
        t = torch.arange(seq_len, dtype=torch.float32)  # expect: GM202
        return t.sum() + x.sum()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rotary_emb = Rotary()
        self.hidden = 4

    def forward(self, x, cache_position: torch.LongTensor):
        pos = self.rotary_emb(x, seq_len=cache_position[-1] + 1)
        channels = torch.IntTensor([self.hidden])
        return fused(x, x, channels).sum() + pos + halves(x, 2).sum()


def example():
    return Model().eval(), (torch.randn(2, 8), torch.arange(6))
