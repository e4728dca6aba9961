# mend-declined: not a plain string literal
import torch


@torch.compile
def check_positive(x):
    # an f-string joined to another literal: no single literal to keep
    if not (x > 0).all():
        raise ValueError(f"expected positive values, got shape {x.shape}" " (log of a negative)")
    return x.log()


def example():
    return check_positive, (torch.rand(4) + 0.1,)
