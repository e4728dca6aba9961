"""Calling a function decorated with torch.compiler.disable or torch._dynamo.disable from
compiled code breaks there (GB0098); with recursive=False torch 2.13 reports GB0099. An
undecorated helper is traced."""
import torch
import torch._dynamo


@torch.compiler.disable
def log_stats(t):
    return float(t.mean())


@torch._dynamo.disable
def check(t):
    return t.isfinite().all()


@torch.compiler.disable(recursive=False)
def shallow(t):
    return t + 1


def scale(t):
    return t * 2


@torch.compile
def step(x):
    y = scale(x.relu())
    m = log_stats(y)  # expect: GM507
    y = y + m
    ok = check(y)  # expect: GM507
    y = y * ok
    y = shallow(y)  # expect: GM507
    return y - 1


def example():
    return step, (torch.randn(4, 8),)
