"""`.tolist()` on an integer tensor built from a shape: the tensor is a graph value, so tolist()
needs its data (GB0033); list(x.shape) does not."""
import torch


@torch.compile
def step(x):
    dims = list(x.shape)
    y = x.reshape(dims[0], dims[1])
    sizes = torch.tensor(x.shape).tolist()  # expect: GM202
    return y.sum() + len(sizes)


def example():
    return step, (torch.randn(4, 8),)
