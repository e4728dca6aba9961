"""More logger forms that break: `isEnabledFor(logging.WARNING)` is enabled under the default
configuration, so both the guard and the guarded warning break; `logging.getLogger(name)` in
the compiled code breaks itself (the logger registry), and so does a method call on the local it
returns; a logger class attribute read through the class; a Logger method bound to a local."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Model(nn.Module):
    log = logging.getLogger("model")

    def __init__(self):
        super().__init__()
        self.lg = logging.getLogger("model.init")

    def forward(self, x):
        x = x * 2
        if logger.isEnabledFor(logging.WARNING):  # expect: GM402
            logger.warning("w %s", x.shape)  # expect: GM402
        x = x + 1
        lg = logging.getLogger("model.local")  # expect: GM402
        x = x * 3
        lg.info("c")  # expect: GM402
        x = x - 1
        w = self.lg.warning
        x = x * 5
        w("d")  # expect: GM402
        x = x + 2
        Model.log.info("e")  # expect: GM402
        return x


def example():
    return Model().eval(), (torch.randn(4, 8),)
