"""Logging and warnings in __init__, at module level and in an uncompiled helper: no break."""
import logging
import warnings

import torch
from torch import nn

logger = logging.getLogger(__name__)
logger.info("importing")


def report(model):
    logger.info("model %s", type(model).__name__)
    warnings.warn("report is eager")


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        logger.debug("building")
        warnings.warn("deprecated argument")
        self.lin = nn.Linear(8, 8)

    def forward(self, x):
        return self.lin(x)


def example():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return Model().eval(), (torch.randn(4, 8),)
