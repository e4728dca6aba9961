"""The eager MoE experts loop: `.nonzero()` under `torch.no_grad()` has a data-dependent shape
(GM301); the loop then iterates the hit experts and tests `if expert_idx == self.num_experts`,
a 0-d tensor against an int, inside the loop (GM101), so dynamo skips that frame.
Reproduces transformers dots1/modeling_dots1.py:335-339, glm4_moe_lite/modeling_glm4_moe_lite.py:463,
ernie4_5_vl_moe/modeling_ernie4_5_vl_moe.py:378 and minimax/modeling_minimax.py:492 (the
`experts_implementation="eager"` path)."""
import torch
from torch import nn


class Experts(nn.Module):
    def __init__(self, num_experts=4, hidden_dim=8, intermediate_dim=6):
        super().__init__()
        self.num_experts = num_experts
        self.gate_up_proj = nn.Parameter(torch.randn(num_experts, 2 * intermediate_dim, hidden_dim))
        self.down_proj = nn.Parameter(torch.randn(num_experts, hidden_dim, intermediate_dim))
        self.act_fn = nn.SiLU()

    def forward(self, hidden_states, top_k_index, top_k_weights):
        final_hidden_states = torch.zeros_like(hidden_states)
        with torch.no_grad():
            expert_mask = torch.nn.functional.one_hot(top_k_index, num_classes=self.num_experts + 1)
            expert_mask = expert_mask.permute(2, 1, 0)
            expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()  # expect: GM301

        for expert_idx in expert_hit:
            expert_idx = expert_idx[0]
            if expert_idx == self.num_experts:  # expect: GM101
                continue
            top_k_pos, token_idx = torch.where(expert_mask[expert_idx])
            current_state = hidden_states[token_idx]
            gate, up = nn.functional.linear(current_state, self.gate_up_proj[expert_idx]).chunk(2, dim=-1)
            current_hidden_states = self.act_fn(gate) * up
            current_hidden_states = nn.functional.linear(current_hidden_states, self.down_proj[expert_idx])
            current_hidden_states = current_hidden_states * top_k_weights[token_idx, top_k_pos, None]
            final_hidden_states.index_add_(0, token_idx, current_hidden_states.to(final_hidden_states.dtype))

        return final_hidden_states


def example():
    top_k_index = torch.tensor([[0, 2], [1, 2], [3, 0]])
    return Experts().eval(), (torch.randn(3, 8), top_k_index, torch.rand(3, 2))
