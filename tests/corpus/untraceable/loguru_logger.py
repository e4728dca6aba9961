"""loguru's `logger.warning(...)` (`from loguru import logger`) is not logging.Logger: each of its
logging methods reads the caller's frame with sys._getframe, which dynamo skips, so it breaks
the graph (GB0007)."""
import torch
from loguru import logger
from torch import nn

# loguru's default handler writes to stderr; a handler that drops the message keeps the oracle
# quiet and the call as it is by default (with no handler at all, loguru returns before
# reading the frame, and nothing breaks)
logger.remove()
logger.add(lambda message: None)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        h = self.proj(x)
        if h.shape[-1] < 16:
            logger.warning("narrow projection")  # expect: GM501
        return h * 2


def example():
    return Model().eval(), (torch.randn(4, 8),)
