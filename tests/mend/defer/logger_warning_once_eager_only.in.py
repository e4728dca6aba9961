# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# T5/Whisper/BART: logger.warning_once in forward, with the logger kept on the module: no
# function of the file can name it, so the safe deferral declines and the call runs in eager
# mode only.
import functools
import logging

import torch
from torch import nn

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
        self.logger = logger

    def forward(self, hidden_states, use_cache=True):
        if self.gradient_checkpointing and use_cache:
            self.logger.warning_once(
                "`use_cache=True` is incompatible with gradient checkpointing. Setting "
                "`use_cache=False`..."
            )
            use_cache = False
        return self.block(hidden_states), use_cache


def example():
    return T5Stack(), (torch.randn(2, 4),)
