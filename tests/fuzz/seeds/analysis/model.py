import torch
from torch import nn

class M(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            print(x)
        return x

@torch.compile(mode='reduce-overhead')
def step(x):
    for i in range(3):
        while x.max() > 1:
            x = x / 2
    try:
        print(x)  # graphmend: ignore[GM101]
    except Exception:
        pass
    return x
