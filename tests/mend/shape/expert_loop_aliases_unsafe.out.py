# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# DBRX's form of the expert loop: the indices are renamed before use (`token_list = token_idx`),
# the expert takes its weights as arguments, and the weighted output spans lines. The renames go
# with the indices; the rest is the dense expert loop (run every expert on every token, weigh
# by the routing weight, 0 when not routed), unsafe as there.
import torch
import torch.nn.functional as F
from torch import nn


class TinyExpertMlp(nn.Module):
    def __init__(self, hidden_size=8, ffn_hidden_size=16, num_experts=3):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(num_experts * ffn_hidden_size, hidden_size) * 0.2)
        self.w2 = nn.Parameter(torch.randn(num_experts * ffn_hidden_size, hidden_size) * 0.2)

    def forward(self, x, w1, w2):
        return F.gelu(x @ w1.t()) @ w2


class TinyDbrxExperts(nn.Module):
    def __init__(self, hidden_size=8, ffn_hidden_size=16, num_experts=3, top_k=2):
        super().__init__()
        self.num_experts = num_experts
        self.top_k = top_k
        self.ffn_hidden_size = ffn_hidden_size
        self.router = nn.Linear(hidden_size, num_experts, bias=False)
        self.mlp = TinyExpertMlp(hidden_size, ffn_hidden_size, num_experts)

    def forward(self, x: torch.Tensor):
        hidden_size = x.shape[-1]
        x = x.view(-1, hidden_size)
        top_weights, top_experts = torch.topk(self.router(x).softmax(dim=-1), self.top_k, dim=-1)
        out = torch.zeros_like(x)
        expert_mask = F.one_hot(top_experts, num_classes=self.num_experts).permute(2, 1, 0)
        w1_chunked = self.mlp.w1.view(self.num_experts, self.ffn_hidden_size, hidden_size).chunk(self.num_experts)
        w2_chunked = self.mlp.w2.view(self.num_experts, self.ffn_hidden_size, hidden_size).chunk(self.num_experts)
        w1_chunked = [w1.squeeze(dim=0) for w1 in w1_chunked]
        w2_chunked = [w2.squeeze(dim=0) for w2 in w2_chunked]
        for expert_idx in range(0, self.num_experts):


            expert_tokens = x[None].reshape(-1, hidden_size)
            expert_out = (
                self.mlp(expert_tokens, w1_chunked[expert_idx], w2_chunked[expert_idx])
                * (top_weights * (expert_mask[expert_idx] != 0).transpose(0, 1)).sum(1)[:, None]
            )

            out.add_(expert_out)
        return out


def example():
    return TinyDbrxExperts().eval(), (torch.randn(2, 5, 8),)
