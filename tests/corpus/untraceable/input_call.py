"""The builtin input() has no dynamo handler (GB0059); a local function named input is traced.
example() feeds stdin so the eager call can run."""
import io
import sys

import torch


@torch.compile
def ask(x):
    y = x.relu()
    answer = input("scale? ")  # expect: GM504
    return y * len(answer)


@torch.compile
def shadowed(x):
    def input(prompt):
        return prompt * 2

    return x * len(input("ab"))


def run(x):
    return ask(x) + shadowed(x)


def example():
    sys.stdin = io.StringIO("three\n")
    return run, (torch.randn(4, 8),)
