"""repeat_interleave with an int repeat count, or tensor repeats with output_size, traces;
tensor repeats without output_size are a dynamic shape operator (GB0036)."""
import torch


@torch.compile
def step(x, r: torch.Tensor):
    y = x.relu()
    a = torch.repeat_interleave(y, 2)
    b = torch.repeat_interleave(y, r, dim=0, output_size=8)
    c = torch.repeat_interleave(y, r, dim=0)  # expect: GM301
    return a.sum() + b.sum() + c.sum()


def example():
    return step, (torch.randn(4, 8), torch.tensor([1, 2, 3, 2]))
