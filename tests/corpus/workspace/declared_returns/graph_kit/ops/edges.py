"""Support module of the declared_returns case: helpers whose return annotations say what they
return, with @overload stubs in front of one of them."""
from typing import Optional, Tuple, overload

import torch
from torch import Tensor


@overload
def coalesce_pairs(pairs: Tensor) -> Tuple[Tensor, None]:
    pass


@overload
def coalesce_pairs(pairs: Tensor, weight: Tensor) -> Tuple[Tensor, Tensor]:
    pass


def coalesce_pairs(pairs, weight=None) -> Tuple[Tensor, Tensor]:  # noqa: F811
    if weight is None:
        weight = torch.ones(pairs.size(1))
    return pairs.flip(0), weight * 1.0


def edge_count(pairs, n: int) -> Tensor:
    return torch.zeros(n).index_add_(0, pairs[0], torch.ones(pairs.size(1)))


def self_loop_free(pairs) -> bool:
    return True


def maybe_weight(pairs) -> Optional[Tensor]:
    return None
