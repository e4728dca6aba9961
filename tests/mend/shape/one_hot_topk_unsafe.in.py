# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
import torch.nn.functional as F


class Router(torch.nn.Module):
    """MoE routing: the experts picked per token, as a one-hot mask."""

    def __init__(self, hidden=8, experts=4):
        super().__init__()
        self.gate = torch.nn.Linear(hidden, experts)

    def forward(self, tokens):
        logits = self.gate(tokens)
        chosen = torch.topk(logits, 2, dim=-1).indices
        mask = F.one_hot(chosen)
        return mask.sum(dim=1).float() * logits


def example():
    torch.manual_seed(0)
    return Router(), (torch.randn(16, 8),)
