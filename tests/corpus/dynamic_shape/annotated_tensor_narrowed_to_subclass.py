"""A parameter annotated torch.Tensor whose body reads attributes torch.Tensor lacks, but only
where `isinstance(x, Subclass)` or `hasattr(x, name)` holds (PyTorch Geometric's EdgeIndex, a
Tensor subclass): those reads are about the narrowed type, so the annotation still stands and
boolean-mask reads of the parameter break (aten.nonzero, GB0036). A parameter that reads a
foreign attribute unguarded is some other object: testing its truth does not break."""
import torch
from torch import Tensor


class EdgeList(Tensor):
    undirected = False


def drop_self_loops(edge_index: Tensor) -> Tensor:
    mask = edge_index[0] != edge_index[1]
    undirected = False
    if not torch.jit.is_scripting() and isinstance(edge_index, EdgeList):
        undirected = edge_index.undirected
    edge_index = edge_index[:, mask]  # expect: GM301
    if isinstance(edge_index, EdgeList):
        edge_index.undirected = undirected
    return edge_index


def keep_weights(weights: Tensor, keep: Tensor) -> Tensor:
    scale = weights.scale if hasattr(weights, "scale") else 1.0
    tag = isinstance(weights, EdgeList) and weights.undirected
    return weights[weights > 0].sum() * scale + keep * float(bool(tag))  # expect: GM301


class Holder:
    def __init__(self, values):
        self.payload = values


def read_holder(holder: Tensor, keep: Tensor) -> Tensor:
    values = holder.payload  # annotated as a tensor, used as some other object
    if holder:
        return values * keep
    return keep


class Graph(torch.nn.Module):
    def forward(self, edge_index, weights, keep, holder):
        edges = drop_self_loops(edge_index)
        return edges.sum() + keep_weights(weights, keep).sum() + read_holder(holder, keep).sum()


def example():
    edge_index = torch.tensor([[0, 1, 2, 2], [1, 1, 0, 2]])
    holder = Holder(torch.randn(4))
    return Graph().eval(), (edge_index, torch.randn(4), torch.randn(4), holder)
