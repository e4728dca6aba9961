"""A sinusoidal positional embedding that regrows its table in forward: `make_weight` assigns
`self.weight = nn.Parameter(weight)` (GM602) when the positions exceed the table; dynamo resumes and also breaks on
`self.weight.detach_()` (in-place view op on a graph input, GB0148) and on the
`self.weight.requires_grad = False` store (GM704).
Reproduces transformers fsmt/modeling_fsmt.py:1065-1071 and 1107-1114."""
import math

import torch
from torch import nn


class SinusoidalPositionalEmbedding(nn.Embedding):
    def __init__(self, num_positions, embedding_dim, padding_idx):
        super().__init__(num_positions, embedding_dim, padding_idx)

    def make_weight(self, num_positions, embedding_dim, padding_idx):
        weight = self.get_embedding(num_positions, embedding_dim, padding_idx)
        # in forward put the weights on the correct dtype and device of the param
        weight = weight.to(dtype=self.weight.dtype, device=self.weight.device)
        self.weight = nn.Parameter(weight)  # expect: GM602
        self.weight.detach_()  # expect: GM708
        self.weight.requires_grad = False  # expect: GM704

    @staticmethod
    def get_embedding(num_embeddings, embedding_dim, padding_idx):
        half_dim = embedding_dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, dtype=torch.int64).float() * -emb)
        emb = torch.arange(num_embeddings, dtype=torch.int64).float().unsqueeze(1) * emb.unsqueeze(0)
        emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1).view(num_embeddings, -1)
        if padding_idx is not None:
            emb[padding_idx, :] = 0
        return emb

    @staticmethod
    def make_positions(tensor, padding_idx: int):
        mask = tensor.ne(padding_idx).int()
        return (torch.cumsum(mask, dim=1).type_as(mask) * mask).long() + padding_idx

    def forward(self, input, *, past_key_values_length: int = 0):
        bsz, seq_len = input.shape[:2]
        max_pos = self.padding_idx + 1 + past_key_values_length + seq_len
        if max_pos > self.weight.size(0):
            # expand embeddings if needed
            self.make_weight(max_pos, self.embedding_dim, self.padding_idx)
        positions = self.make_positions(input, self.padding_idx) + past_key_values_length
        return super().forward(positions)


def example():
    return SinusoidalPositionalEmbedding(4, 6, 1).eval(), (torch.tensor([[3, 4, 5, 6, 1]]),)
