# mend-applicability: safe
import torch


@torch.compile
def window_grid(x: torch.Tensor, window: int = 2):
    rows, cols = torch.tensor((x.size(0), x.shape[1])).tolist()
    return x.reshape(rows // window, window, cols) * 2


def example():
    return window_grid, (torch.randn(4, 3),)
