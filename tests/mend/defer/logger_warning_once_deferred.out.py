# mend-applicability: safe
# T5/Whisper/BART: logger.warning_once in forward. A Logger method cannot be reordered by
# dynamo (it is reached through the logger object), but a function of the file that calls it
# can: the call goes through one, which the file adds to reorderable_logging_functions.
import functools
import logging

import torch
from torch import nn


def _graphmend_logger_warning_once(*args):
    logger.warning_once(*args)


torch._dynamo.config.reorderable_logging_functions.add(_graphmend_logger_warning_once)

logger = logging.getLogger(__name__)


@functools.lru_cache(None)
def warning_once(self, *args, **kwargs):
    self.warning(*args, **kwargs)


logging.Logger.warning_once = warning_once


class T5Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = nn.Linear(4, 4)
        self.gradient_checkpointing = True

    def forward(self, hidden_states, use_cache=True):
        if self.gradient_checkpointing and use_cache:
            _graphmend_logger_warning_once(
                "`use_cache=True` is incompatible with gradient checkpointing. Setting "
                "`use_cache=False`..."
            )
            use_cache = False
        return self.block(hidden_states), use_cache


def example():
    return T5Stack(), (torch.randn(2, 4),)
