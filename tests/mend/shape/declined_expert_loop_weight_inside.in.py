# mend-declined: a pair's weight is used other than as a factor of the value added
# mend-rules: GM301
# The routing weight scales the expert's input, not its output: a token the dense loop does
# not route would add expert(0), not zero, so no dense rewrite keeps the sum.
import torch
import torch.nn.functional as F
from torch import nn


class InputScaledMoe(nn.Module):
    def __init__(self, hidden_dim=8, num_experts=3, top_k=2):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.gate = nn.Linear(hidden_dim, num_experts, bias=False)
        self.experts = nn.ModuleList(nn.Linear(hidden_dim, hidden_dim) for _ in range(num_experts))

    def forward(self, hidden_states: torch.Tensor):
        routing_weights, selected_experts = torch.topk(self.gate(hidden_states).softmax(-1), self.top_k, dim=-1)
        final_hidden_states = torch.zeros_like(hidden_states)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[expert_idx])
            scaled = hidden_states[top_x] * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, self.experts[expert_idx](scaled))
        return final_hidden_states


def example():
    return InputScaledMoe().eval(), (torch.randn(6, 8),)
