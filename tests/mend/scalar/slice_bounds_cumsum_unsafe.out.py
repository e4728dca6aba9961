# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
torch._dynamo.config.capture_scalar_outputs = True


@torch.compile
def grouped_matmul(tokens: torch.Tensor, per_expert: torch.Tensor, weights: torch.Tensor):
    # tokens already grouped by expert: each expert multiplies its own slice of rows
    ends = torch.cumsum(per_expert, dim=0)
    starts = ends - per_expert
    out = torch.zeros(tokens.shape[0], weights.shape[-1], dtype=tokens.dtype)
    for e in range(weights.shape[0]):
        start = starts[e]
        end = ends[e]
        out[start:end] = tokens[start:end] @ weights[e]
    return out


def example():
    torch.manual_seed(0)
    return grouped_matmul, (torch.randn(6, 4), torch.tensor([2, 0, 4]), torch.randn(3, 4, 5))
