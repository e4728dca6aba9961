# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# Grounding DINO's deformable attention guard: `if <tensor condition>: raise`, no `not`.
import torch
from torch import nn


class DeformableAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, hidden_states, spatial_shapes):
        sequence_length = hidden_states.shape[1]
        # Ignore copy
        if (spatial_shapes[:, 0] * spatial_shapes[:, 1]).sum() != sequence_length:
            raise ValueError(
                "Make sure to align the spatial shapes with the sequence length of the encoder hidden states"
            )
        return self.proj(hidden_states)


def example():
    shapes = torch.tensor([[2, 3], [1, 2]])
    return DeformableAttention(8), (torch.randn(2, 8, 8), shapes)
