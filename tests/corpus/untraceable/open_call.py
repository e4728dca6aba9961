"""The builtin open() cannot be traced (GB0059); a local function named open is traced."""
import os

import torch


def read_null():
    with open(os.devnull) as f:
        return f.read()


@torch.compile
def step(x):
    y = x.relu()
    open(os.devnull).close()  # expect: GM503
    return y * 2


@torch.compile
def shadowed(x):
    def open(p):
        return len(p)

    return x * open("abc")


def run(x):
    return step(x) + shadowed(x)


def example():
    return run, (torch.randn(4, 8),)
