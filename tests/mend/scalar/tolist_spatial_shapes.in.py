# mend-declined: builds a Python list
import torch


@torch.compile
def split_levels(value: torch.Tensor, spatial_shapes: torch.Tensor):
    # Grounding-DINO: per-level sizes read back as Python ints
    sizes = [h * w for h, w in spatial_shapes.tolist()]
    return value.split(sizes, dim=1)


def example():
    return split_levels, (torch.randn(2, 20, 4), torch.tensor([[2, 4], [3, 4]]))
