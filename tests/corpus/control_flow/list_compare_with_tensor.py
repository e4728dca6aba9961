"""`list(t.size()) == [4, n]` with a 0-d tensor n (returned in a tuple by a staticmethod and
passed to a helper): dynamo compares element by element, gets a tensor and breaks
(list_richcompare_nonconst), with or without an assert message. Comparing a size with ints only
traces."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        n, counts = self.count(x)
        assert list(x.size()) == [4, 8], f"bad size {x.size()}"
        assert x.size() == (4, x.shape[1])
        return self.check(x, n) + counts.sum()

    @staticmethod
    def count(x):
        counts = (x > 0).long().sum(dim=1)
        return counts.max(), counts

    def check(self, x: torch.Tensor, n):
        assert list(x.size()) == [4, n], f"bad size {x.size()}"  # expect: GM101
        return x * 2


def example():
    return Model().eval(), (torch.ones(4, 8),)
