# mend-declined: more than one raise statement
import torch


@torch.compile
def check_mask(mask):
    if not mask.any():
        raise ValueError("the mask selects nothing")
        mask = mask | True  # never runs
    return mask.float().mean()


def example():
    return check_mask, (torch.tensor([True, False, True]),)
