"""torch.equal(a, b) returns a Python bool computed from the data (aten._local_scalar_dense,
GB0033), and `v in t` reads tensor data through Tensor.item() (dynamo cannot resume after it and
runs the frame eagerly): both break at their line. Containment in a Python list or tuple
(a shape element in a tuple too) is traced without a break."""
import torch


@torch.compile
def step(a: torch.Tensor, b: torch.Tensor, sizes, names):
    if 4 in sizes and "a" not in names and a.shape[0] in (2, 4):
        a = a - 1
    a = a + 0
    if torch.equal(a, b):  # expect: GM202
        a = a * 2
    a = a + 1
    if 0.5 in a:  # expect: GM202
        a = a * 3
    return a


def example():
    return step, (torch.randn(4), torch.randn(4), [4, 8], ("b",))
