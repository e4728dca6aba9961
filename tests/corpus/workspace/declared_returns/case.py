"""Calls of functions of another package whose bodies the caller's analysis never walks: what
their return annotations declare (`-> Tensor`, `-> Tuple[Tensor, Tensor]`) makes the values
tensors, through a package's re-export and through a module imported whole. A boolean mask of
them is read (aten.nonzero, GB0036), a branch on them breaks (GB0170). `-> bool` and
`-> Optional[Tensor]` make nothing a tensor."""
import torch

from graph_kit import coalesce_pairs, edge_count, self_loop_free
from graph_kit.ops import edges


class EdgeBlock(torch.nn.Module):
    def forward(self, pairs, x):
        pairs, weight = coalesce_pairs(pairs)
        loop = pairs[0] == pairs[1]
        weight[loop] -= 1  # expect: GM301
        degree = edge_count(pairs, x.size(0))
        if self_loop_free(pairs):
            x = x * 2
        extra = edges.maybe_weight(pairs)
        if extra:
            x = x + 1
        fanout = edges.edge_count(pairs, x.size(0))
        if fanout[0] > 1:  # expect: GM101
            x = x - 1
        return x * degree.unsqueeze(-1) + weight.sum()


def example():
    pairs = torch.tensor([[0, 1, 2, 2], [1, 1, 0, 2]])
    return EdgeBlock().eval(), (pairs, torch.randn(3, 4))
