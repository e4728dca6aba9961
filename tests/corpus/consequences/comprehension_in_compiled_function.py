"""A compiled function (no module, no self) whose loop breaks: dynamo skips its frame, and on
Python 3.11 the comprehension that names `torch` is compiled as a frame of its own and cannot
take its list iterator (GB4347). The one that reads only its iterator is skipped and runs."""
import torch


@torch.compile(backend="eager")
def normalize_all(xs):
    total = 0.0
    for x in xs:
        total = total + x.sum()
        if total > 1:  # expect: GM101
            total = total / 2
    lengths = [len(x) for x in xs]
    normed = [torch.nn.functional.normalize(x, dim=-1) for x in xs]  # expect: GM606
    return normed, lengths, total


def example():
    return normalize_all, ([torch.rand(2, 4), torch.rand(3, 4)],)
