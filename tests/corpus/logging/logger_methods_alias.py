"""Every Logger method, on a logger built through an import alias of logging and through
`from logging import getLogger`."""
import logging as lg
from logging import getLogger

import torch

log = lg.getLogger("model")
other = getLogger("other")


@torch.compile
def step(x):
    y = x + 1
    log.debug("debug")  # expect: GM402
    y = y * 2
    log.warning("warning")  # expect: GM402
    y = y - 1
    other.error("error")  # expect: GM402
    y = y.relu()
    other.critical("critical")  # expect: GM402
    y = y + 3
    log.log(lg.INFO, "log")  # expect: GM402
    return y


def example():
    return step, (torch.randn(4, 8),)
