"""Support package of the declared_returns case: re-exports its helpers like PyTorch
Geometric's utils package does."""
from .ops.edges import coalesce_pairs, edge_count, self_loop_free
from .ops import edges

__all__ = ["coalesce_pairs", "edge_count", "self_loop_free", "edges"]
