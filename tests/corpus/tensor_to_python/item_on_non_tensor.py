"""`.item()` and `.tolist()` on objects that are not tensors (a plain class, a dict's items, a
parameter with no tensor evidence that is a Python object), int() of Python numbers and of
shapes: no break."""
import torch


class Box:
    def __init__(self, value):
        self.value = value

    def item(self):
        return self.value

    def tolist(self):
        return [self.value]


BOX = Box(3)


@torch.compile
def scale(x, config):
    k = BOX.item()
    names = [name for name, _ in config.items()]
    n = int(x.shape[0])
    f = float(len(names) + k)
    flag = bool(config)
    return x * (n + f + len(BOX.tolist()) + flag)


def example():
    return scale, (torch.randn(4, 8), {"a": 1, "b": 2})
