# mend-declined: it is used as a shape or size argument
import torch


@torch.compile
def pad_to_longest(tokens, lengths):
    # Longformer-style: the longest sequence decides the padded width
    longest = lengths.max().item()
    out = tokens.new_zeros(tokens.shape[0], longest)
    return out + 1


def example():
    return pad_to_longest, (torch.randn(2, 4), torch.tensor([3, 5]))
