# mend-declined: it is passed to a function, which may need a Python number
import math

import torch


@torch.compile
def temperature(logits: torch.Tensor, t: torch.Tensor):
    # CLAP: the learned logit scale read back as a float for math.exp
    scale = t.exp().item()
    return logits * math.log(scale)


def example():
    return temperature, (torch.randn(2, 2), torch.tensor(0.5))
