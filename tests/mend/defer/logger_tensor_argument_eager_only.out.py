# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# A tensor argument: deferred, the message would show the tensor as it is at the end of the
# graph (after the in-place update below), so the safe deferral declines and the call runs in
# eager mode only.
import logging

import torch

logger = logging.getLogger(__name__)


@torch.compile
def scale(x):
    h = x * 2
    if not torch.compiler.is_compiling():
        logger.warning("scaled: %s", h)
    h.add_(1)
    return h


def example():
    return scale, (torch.randn(3),)
