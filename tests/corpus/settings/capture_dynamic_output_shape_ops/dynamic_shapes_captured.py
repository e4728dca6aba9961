"""capture_dynamic_output_shape_ops = True: nonzero, boolean-mask reads and unique produce
unbacked sizes instead of breaking (GB0036 by default). one_hot without num_classes reads
the class count from the data and still breaks (GB0246)."""
import torch
import torch.nn.functional as F


@torch.compile
def step(x, labels):
    idx = x.nonzero()
    positive = x[x > 0]
    values = torch.unique(labels)
    y = idx.sum() + positive.sum() + values.sum()
    onehot = F.one_hot(labels)  # expect: GM302
    return y + onehot.sum()


def example():
    return step, (torch.randn(4, 8), torch.tensor([0, 2, 1, 2]))
