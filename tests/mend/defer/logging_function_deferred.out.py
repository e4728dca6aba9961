# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import logging

import torch
torch._dynamo.config.reorderable_logging_functions.add(logging.warning)


@torch.compile
def clamp_logits(logits):
    logging.warning("clamping logits to [-30, 30]")
    return logits.clamp(-30, 30)


def example():
    return clamp_logits, (torch.randn(4) * 50,)
