# mend-declined: something else holds it (a list, a view, an argument)
# mend-rules: GM301
# The routed rows are written back into a tensor the function has also handed to a cache
# before the store: the cache holds the same tensor and sees the in-place write. Rebinding the
# name to a torch.where result would leave the cache's tensor unchanged, so no mend is offered.
import torch
from torch import nn


class CachedMixedLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.audio_mlp = nn.Linear(8, 8)
        self.cache = []

    def forward(self, hidden_states: torch.Tensor, audio_token_mask: torch.BoolTensor):
        hidden_states = hidden_states * 2
        self.cache.append(hidden_states)
        audio_hidden_states = self.audio_mlp(hidden_states[audio_token_mask])
        hidden_states[audio_token_mask] += audio_hidden_states
        return hidden_states


def example():
    mask = torch.tensor([[True, False, True, True, False], [False, False, True, True, True]])
    return CachedMixedLayer().eval(), (torch.randn(2, 5, 8), mask)
