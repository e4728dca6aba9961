"""Objects that are not torch.Generator: a user class with manual_seed/get_state methods, a
parameter without annotation, numpy's global seed: no break. Drawing random numbers from the
default generator is traced."""
import numpy as np
import torch


class Sampler:
    def __init__(self):
        self.seed_value = 0

    def manual_seed(self, s):
        self.seed_value = s
        return self

    def get_state(self):
        return self.seed_value


SAMPLER = Sampler()


@torch.compile
def step(x, sampler):
    SAMPLER.manual_seed(3)
    v = sampler.get_state()
    np.random.seed(0)
    return x * SAMPLER.get_state() + v + torch.rand(8)


def example():
    return step, (torch.randn(4, 8), Sampler())
