# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# MoLFormer's self-attention guard (there torch.equal; here the same test as a tensor).
import torch
from torch import nn


class MolformerSelfAttention(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.query = nn.Linear(hidden, hidden)

    def forward(self, hidden_states, attention_mask):
        per_query_extended = attention_mask[:, :1, :].expand_as(attention_mask)
        torch._assert_async(
            (attention_mask == per_query_extended).all(),
            "ValueError: MolformerSelfAttention does not support arbitrary 3D attention masks, only "
            "masks that are the same for every query"
        )
        scores = self.query(hidden_states) @ hidden_states.transpose(-1, -2)
        return (scores + attention_mask).softmax(-1) @ hidden_states


def example():
    mask = torch.zeros(2, 1, 5).expand(2, 5, 5).clone()
    return MolformerSelfAttention(), (torch.randn(2, 5, 8), mask)
