"""torch.equal(a, b) returns a Python bool computed from the data (aten._local_scalar_dense,
GB0033), and `v in t` reads tensor data through Tensor.item() (dynamo cannot resume after it and
runs the frame eagerly): both break at their line."""
import torch


@torch.compile
def step(a, b):
    a = a + 0
    if torch.equal(a, b):  # expect: GM202
        a = a * 2
    a = a + 1
    if 0.5 in a:  # expect: GM202
        a = a * 3
    return a


def example():
    return step, (torch.randn(4), torch.randn(4))
