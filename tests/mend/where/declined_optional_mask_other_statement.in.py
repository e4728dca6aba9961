# mend-declined: not a tensor bound before it
# mend-rules: GM101
# The same test whose body does more than drop the value (it also sets a number): no eager-only
# decision is offered.
import torch


@torch.compile
def make_padding_mask(input_ids, padding_idx=1):
    padding_mask = input_ids.eq(padding_idx)
    if not padding_mask.any():
        padding_mask = None
        padding_idx = -1
    return padding_mask, padding_idx


def example():
    return make_padding_mask, (torch.tensor([[2, 3, 4, 5]]),)
