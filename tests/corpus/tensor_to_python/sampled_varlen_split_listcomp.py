"""Chunked varlen attention: `torch.split(t, lengths.tolist(), dim=2)` in the element of a list
comprehension (the comprehension is a loop), so `.tolist()` on the tensor `lengths` breaks (GM202)
inside it. Reproduces transformers qwen3_omni_moe/modeling_qwen3_omni_moe.py:937-956 (same code in
video_llama_3:282, minicpm_ocr:212, qwen2_5_omni:1060, minicpmv4_6:204)."""
import torch
from torch import nn


def attention_interface(module, q, k, v, attention_mask=None, scaling=1.0, dropout=0.0, is_causal=False):
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scaling)
    return out.transpose(1, 2), None


class Attention(nn.Module):
    scaling = 0.5
    attention_dropout = 0.0

    def forward(
        self,
        query_states: torch.Tensor,
        key_states: torch.Tensor,
        value_states: torch.Tensor,
        cu_seqlens: torch.Tensor,
    ):
        # Other implementations: Process each chunk separately
        lengths = cu_seqlens[1:] - cu_seqlens[:-1]
        splits = [
            torch.split(tensor, lengths.tolist(), dim=2) for tensor in (query_states, key_states, value_states)  # expect: GM202
        ]

        attn_outputs = [
            attention_interface(
                self,
                q,
                k,
                v,
                attention_mask=None,
                scaling=self.scaling,
                dropout=0.0 if not self.training else self.attention_dropout,
                is_causal=False,
            )[0]
            for q, k, v in zip(*splits)
        ]
        return torch.cat(attn_outputs, dim=1)


def example():
    q = torch.randn(1, 2, 6, 4)
    return Attention().eval(), (q, q.clone(), q.clone(), torch.tensor([0, 2, 6], dtype=torch.int32))
