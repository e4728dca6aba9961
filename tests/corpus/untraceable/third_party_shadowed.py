"""Names that only look like third-party modules: a local function named tqdm, a parameter
named pd, and a module-level helper named tabulate (none imported): no break."""
import torch


def tabulate(rows):
    return len(rows)


@torch.compile
def step(x, pd=None):
    def tqdm(it, **kwargs):
        return it

    y = x
    for i in tqdm(range(2), disable=True):
        y = y + i
    if pd is not None:
        y = pd.scale(y)
    return y * tabulate([1, 2])


def example():
    return step, (torch.randn(4, 8),)
