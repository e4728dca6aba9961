"""Module-level logging functions (the root logger): torch 2.13 breaks at each call
(GB4841 "Unsupported python_type() call")."""
import logging

import torch


@torch.compile
def step(x):
    y = x + 1
    logging.info("info")  # expect: GM402
    y = y * 2
    logging.warning("warning %s", 1)  # expect: GM402
    return y


def example():
    return step, (torch.randn(4, 8),)
