"""Objects with info/warning methods that are not logging.Logger (a same-file class, a local
variable named logger), and a `warn` that is not warnings.warn: no break."""
import torch


class Recorder:
    def __init__(self):
        self.seen = []

    def info(self, msg):
        self.seen.append(msg)

    def warning(self, msg):
        self.seen.append(msg)


logger = Recorder()


def warn(msg):
    return msg


@torch.compile
def step(x):
    y = x + 1
    logger.info("recorded")
    logger.warning("also recorded")
    warn("plain function")
    return y * 2


def example():
    return step, (torch.randn(4, 8),)
