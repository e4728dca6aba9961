# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def dispatch(hidden: torch.Tensor, top_k: int = 2):
    # MoE dispatch: each token goes to top_k experts
    num_tokens = hidden.shape[0]
    repeats = torch.full((num_tokens,), top_k)
    return torch.repeat_interleave(hidden, repeats, dim=0, output_size=num_tokens * top_k) * 2


def example():
    return dispatch, (torch.randn(5, 4),)
