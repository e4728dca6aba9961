# mend-applicability: safe
# Longformer's padding notice (transformers 5.23.0): a Logger call with an f-string of a Python
# int goes through a function of the file, which passes stacklevel=2 so that the record still
# points at this line in eager mode; the logger.info beside it shares nothing with it.
import logging

import torch
from torch import nn


def _graphmend_logger_info(*args):
    logger.info(*args, stacklevel=2)


torch._dynamo.config.reorderable_logging_functions.add(_graphmend_logger_info)


def _graphmend_logger_warning(*args):
    logger.warning(*args, stacklevel=2)


torch._dynamo.config.reorderable_logging_functions.add(_graphmend_logger_warning)

logger = logging.getLogger(__name__)


class LongformerPad(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention_window = 4
        self.proj = nn.Linear(8, 8)

    def forward(self, hidden_states):
        seq_len = hidden_states.shape[1]
        padding_len = (self.attention_window - seq_len % self.attention_window) % self.attention_window
        if padding_len > 0:
            _graphmend_logger_warning(
                # the window comes from the config
                f"Input ids are automatically padded to be a multiple of "
                f"`config.attention_window`: {self.attention_window}"
            )
            hidden_states = nn.functional.pad(hidden_states, (0, 0, 0, padding_len))
        _graphmend_logger_info(f"padded by {padding_len}")
        return self.proj(hidden_states)


def example():
    return LongformerPad(), (torch.randn(2, 5, 8),)
