"""Seeding and RNG state in compiled code: torch.manual_seed, random.seed, torch.get_rng_state
and torch.set_rng_state are skipped functions (GB0007). numpy's global seed and drawing from
the default generator are traced."""
import random

import numpy as np
import torch

STATE = torch.get_rng_state()


@torch.compile
def step(x):
    y = x.relu()
    torch.manual_seed(0)  # expect: GM501
    y = y + torch.rand(8)
    random.seed(0)  # expect: GM501
    y = y * 2
    s = torch.get_rng_state()  # expect: GM501
    y = y - 1
    torch.set_rng_state(STATE)  # expect: GM501
    np.random.seed(0)
    return y + torch.randn(8), s


def example():
    return step, (torch.randn(4, 8),)
