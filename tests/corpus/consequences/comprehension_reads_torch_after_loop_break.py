"""A break inside a loop makes dynamo skip forward's frame; on Python 3.11 it then compiles each
list/set/dict comprehension of forward as a frame of its own, but only one that holds torch
(has_tensor_in_frame): one that reads a tensor of forward, or names a torch module as a global
(`torch`, `F`, `nn`). Those cannot start, as they are handed a list iterator (GB4347, Missing
tp_iternext). A comprehension that reads only its own iterator, or a list of ints, holds no
torch: dynamo skips its frame and it runs without a break."""
import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def forward(self, x: torch.Tensor):
        outs = []
        for i in range(2):
            outs.append(x + i)
            if x.sum() > 0:  # expect: GM101
                x = x * 2
        idx = list(range(2))
        doubled = [o * 2 for o in outs]
        scaled = [o * x for o in outs]  # expect: GM606
        relu = [torch.relu(o) for o in outs]  # expect: GM606
        gelu = [F.gelu(o) for o in outs]  # expect: GM606
        silu = {n: nn.functional.silu(o) for n, o in enumerate(outs)}  # expect: GM606
        kept = [k for k in outs if k is not None]
        twice = [i * 2 for i in idx]
        rows = {o.shape[0] for o in outs}
        return (x + doubled[0] + scaled[0] + relu[0] + gelu[0] + silu[0] + kept[0]
                + len(twice) + len(rows))


def example():
    return Net().eval(), (torch.rand(2, 4),)
