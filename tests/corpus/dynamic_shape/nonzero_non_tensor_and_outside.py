"""`.nonzero()`/`.unique()` on an object that is not a tensor, a local function named
`nonzero`, and dynamic shape operators outside any compiled region: no break."""
import torch


class Picker:
    def nonzero(self):
        return 1

    def unique(self):
        return 2


PICKER = Picker()


def prepare(x):
    return torch.nonzero(x), x[x > 0], torch.unique(x)


@torch.compile
def step(x: torch.Tensor):
    def nonzero(t):
        return t + 1

    y = x.relu()
    return nonzero(y) + PICKER.nonzero() + PICKER.unique()


def example():
    return step, (torch.randn(4, 8),)
