# mend-applicability: safe
import torch


@torch.compile
def tile_segments(x: torch.Tensor):
    counts = torch.tensor([1, 2, 3])
    return torch.repeat_interleave(
        x,
        counts,  # per-row repeat counts
        output_size=6,
    )


def example():
    return tile_segments, (torch.randn(3),)
