"""torch.Generator methods are stateful RNG operations dynamo will not trace (GB7650): on a
module-level generator, on a parameter annotated torch.Generator, and on one the function
creates, whose creation breaks first (GB0363, an opaque object created in the region)."""
import torch

GEN = torch.Generator()


@torch.compile
def step(x, g: torch.Generator):
    y = x.relu()
    GEN.manual_seed(0)  # expect: GM508
    y = y * 2
    state = g.get_state()  # expect: GM508
    y = y + 1
    local = torch.Generator()  # expect: GM509
    local.manual_seed(1)  # expect: GM508
    return y - 1, state


def example():
    return step, (torch.randn(4, 8), torch.Generator())
