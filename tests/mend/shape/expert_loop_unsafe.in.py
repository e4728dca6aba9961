# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# The mixture-of-experts loop of OLMoE, Qwen3-MoE and their relatives: `torch.where(expert_mask[e])` lists
# the (slot, token) pairs routed to expert e, whose count depends on the data. Running each
# expert on every token and weighing a token by its routing weight (0 when the token is not
# routed to the expert) adds the same values; an expert that gets no token is skipped by adding
# zeros. Every expert then does the work of all tokens, and equality needs an expert that works
# token by token and stays finite, so the mend is unsafe.
import torch
import torch.nn.functional as F
from torch import nn


class TinyMoe(nn.Module):
    def __init__(self, hidden_dim=8, num_experts=4, top_k=2):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.gate = nn.Linear(hidden_dim, num_experts, bias=False)
        self.experts = nn.ModuleList(
            nn.Sequential(nn.Linear(hidden_dim, 16), nn.SiLU(), nn.Linear(16, hidden_dim))
            for _ in range(num_experts)
        )

    def forward(self, hidden_states: torch.Tensor):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        routing_weights = routing_weights.to(hidden_states.dtype)
        final_hidden_states = torch.zeros(
            (batch_size * sequence_length, hidden_dim), dtype=hidden_states.dtype, device=hidden_states.device
        )
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            expert_layer = self.experts[expert_idx]
            idx, top_x = torch.where(expert_mask[expert_idx])
            if top_x.shape[0] == 0:
                continue
            # the tokens routed to this expert, weighted by their routing weight
            current_state = hidden_states[None, top_x].reshape(-1, hidden_dim)
            current_hidden_states = expert_layer(current_state) * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, current_hidden_states.to(hidden_states.dtype))
        return final_hidden_states.reshape(batch_size, sequence_length, hidden_dim)


def example():
    return TinyMoe().eval(), (torch.randn(2, 5, 8),)
