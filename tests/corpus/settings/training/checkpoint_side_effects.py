"""Gradient checkpointing in training: torch.compile traces each checkpointed block's forward as
the body of a higher-order op, which must not change state outside it. Storing an attribute of a
module (a causal-conv cache), deleting one (a cache cleared through a helper method), or storing
an item of a dict the caller passed in makes dynamo give up on the op ("HOP: Unsafe side effect",
GB0067) and run that checkpointed call eagerly. A dict made inside the body, and the module that
makes the checkpoint calls storing its own attribute, change nothing of the checkpointed body's
outside; an attribute set to a literal and set back before the end is undone, so dynamo
accepts it (left set, dynamo breaks at the checkpoint call instead). Without checkpointing the same statements trace (graphmend says that the finding holds
when checkpointing is on)."""
import torch
import torch.utils.checkpoint
from torch import nn


class CausalConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.cache = None
        self.warmed = False

    def forward(self, x):
        y = self.lin(x)
        self.warmed = True
        self.warmed = False
        scratch = {}
        scratch["last"] = y
        self.cache = y.detach()  # expect: GM609
        return scratch["last"]


class CachedNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)

    def forward(self, x, cache=None):
        out = self.norm(x)
        if cache is not None and cache.get("mean") is None:
            cache["mean"] = 1  # expect: GM609
        return out


class ClearedConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(8, 8)
        self.prev_features = None

    def _clear_cache(self):
        del self.prev_features  # expect: GM609
        self.prev_features = None

    def forward(self, x):
        self._clear_cache()
        return self.lin(x)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = CausalConv()
        self.norm = CachedNorm()
        self.clear = ClearedConv()
        self.gradient_checkpointing = True

    def forward(self, x):
        cache = {}
        if self.gradient_checkpointing and self.training:
            x = torch.utils.checkpoint.checkpoint(self.conv, x, use_reentrant=False)
            x = torch.utils.checkpoint.checkpoint(self.norm, x, cache, use_reentrant=False)
            x = torch.utils.checkpoint.checkpoint(self.clear, x, use_reentrant=False)
        self.calls = x.shape[0]
        return x.relu()


def example():
    return Encoder(), (torch.randn(4, 8, requires_grad=True),)
