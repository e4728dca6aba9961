"""transformers' `logger.warning_once(...)`: an lru_cache'd function installed as a
`logging.Logger` attribute; calling it on a Logger is a Logger method call and breaks (GM402).
Reproduces transformers t5gemma/modeling_t5gemma.py:1215-1220 (and utils/logging.py:331-343)."""
import functools
import logging

import torch
from torch import nn


@functools.lru_cache(None)
def warning_once(self, *args, **kwargs):
    self.warning(*args, **kwargs)


if not hasattr(logging.Logger, "warning_once"):
    logging.Logger.warning_once = warning_once

logger = logging.getLogger(__name__)


class Model(nn.Module):
    pad_token_id = 0

    def forward(self, logits, input_ids=None, inputs_embeds=None):
        if input_ids is not None:
            non_pad_mask = (input_ids != self.pad_token_id).to(logits.device, torch.int32)
            token_indices = torch.arange(input_ids.shape[-1], device=logits.device, dtype=torch.int32)
            last_non_pad_token = (token_indices * non_pad_mask).argmax(-1)
        else:
            last_non_pad_token = -1
            logger.warning_once(  # expect: GM402
                f"{self.__class__.__name__} will not detect padding tokens in `inputs_embeds`. Results may be "
                "unexpected if using padding tokens in conjunction with `inputs_embeds.`"
            )
        return logits[:, last_non_pad_token]


def example():
    return Model().eval(), (torch.randn(2, 5, 3), None, torch.randn(2, 5, 4))
