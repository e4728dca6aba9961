# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# The extra one-hot class (`num_classes=self.num_experts + 1`, for dropped tokens) skipped
# first by the body (`if expert_idx == self.num_experts: continue`): every index the mended
# loop visits is an expert or the skipped class, so the loop over every index holds.
import torch
from torch import nn


class Experts(nn.Module):
    def __init__(self):
        super().__init__()
        self.num_experts = 4
        self.gate_up_proj = nn.Parameter(torch.randn(4, 8, 16) * 0.1)
        self.down_proj = nn.Parameter(torch.randn(4, 16, 8) * 0.1)

    def forward(self, hidden_states, router_indices, routing_weights):
        next_states = torch.zeros_like(hidden_states)
        with torch.no_grad():
            expert_mask = torch.nn.functional.one_hot(router_indices, num_classes=self.num_experts + 1).permute(2, 1, 0)
            expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0).nonzero()
        for expert_idx in expert_hit:
            expert_idx = expert_idx[0]
            if expert_idx == self.num_experts:
                continue
            top_k_pos, token_idx = torch.where(expert_mask[expert_idx])
            current_state = hidden_states[token_idx]
            gated = torch.relu(current_state @ self.gate_up_proj[expert_idx])
            out = gated @ self.down_proj[expert_idx]
            weighted_output = out * routing_weights[token_idx, top_k_pos, None]
            next_states.index_add_(0, token_idx, weighted_output)
        return next_states


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(8, 4)
        self.experts = Experts()

    def forward(self, x):
        logits = self.router(x)
        weights, indices = torch.topk(logits.softmax(-1), 2, dim=-1)
        return self.experts(x, indices, weights)


def example():
    return Model().eval(), (torch.randn(6, 8),)
