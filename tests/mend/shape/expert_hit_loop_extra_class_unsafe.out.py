# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# A mixture-of-experts loop whose one-hot has a class beyond the experts (`num_classes=
# self.num_experts + 1`, for tokens an expert drops) and whose body does not skip it: no token
# is routed there, so the loop over the hit experts never visits it. Looping over every index
# of the mask would visit it and index past the experts (IndexError: a mend that made a working
# model raise), so the mended loop stops at `self.num_experts`.
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
            expert_mask = torch.nn.functional.one_hot(router_indices, num_classes=self.num_experts + 1)
            expert_mask = expert_mask.permute(2, 1, 0)
            expert_hit = torch.greater(expert_mask.sum(dim=(-1, -2)), 0)
        for expert_idx in range(self.num_experts):
            current_state = hidden_states
            gated = torch.relu(current_state @ self.gate_up_proj[expert_idx])
            out = gated @ self.down_proj[expert_idx]
            weighted_output = out * (routing_weights * (expert_mask[expert_idx] != 0).transpose(0, 1)).sum(1)[:, None]
            next_states.add_(weighted_output)
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
