"""A size held in a local keeps what its value was: a tensor made in the graph breaks where it
is used as a size (GM202); a tensor passed in, or an int from a shape, does not."""

import torch


@torch.compile
def made_here(t: torch.Tensor):
    n = t.abs().sum().long() % 4 + 1
    a = torch.arange(n)  # expect: GM202
    return a


@torch.compile
def passed_in(t: torch.Tensor, m: torch.Tensor):
    n = m
    a = torch.arange(n)
    k = t.shape[0] + 1
    b = torch.zeros(k)
    return a.sum() + b.sum()


def run(t):
    m = torch.tensor(3)
    return made_here(t).sum() + passed_in(t, m)


def example():
    return run, (torch.randn(5),)
