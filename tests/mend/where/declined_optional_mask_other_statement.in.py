# mend-declined: a branch value is not known to be a tensor
# mend-rules: GM101
# The same test whose body does more than drop the value (it also sets a number): no eager-only
# decision is offered, and no select either (`padding_idx`, a Python int, would become a tensor;
# `input_ids` is a tensor by `.eq()`, a method only tensors have).
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
