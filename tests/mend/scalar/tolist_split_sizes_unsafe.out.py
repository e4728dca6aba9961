# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
import torch.nn.functional as F
torch._dynamo.config.capture_scalar_outputs = True


def route(hidden: torch.Tensor, router: torch.Tensor, experts: int):
    # top-1 routing: the tokens sorted by expert, and how many each expert gets
    chosen = (hidden @ router).argmax(dim=-1)
    counts = F.one_hot(chosen, experts).sum(0)
    counts = counts.tolist()
    order = chosen.argsort()
    return order, counts


@torch.compile
def grouped_experts(hidden: torch.Tensor, router: torch.Tensor, weights: torch.Tensor):
    # a mixture of experts that runs each expert on its contiguous group of sorted tokens
    order, counts = route(hidden, router, weights.shape[0])
    groups = hidden[order].split(counts, dim=0)
    outputs = [groups[e] @ weights[e] for e in range(weights.shape[0])]
    return torch.cat(outputs, dim=0)


def example():
    torch.manual_seed(0)
    return grouped_experts, (torch.randn(6, 4), torch.randn(4, 3), torch.randn(3, 4, 5))
