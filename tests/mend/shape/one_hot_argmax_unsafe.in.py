# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch
import torch.nn.functional as F


@torch.compile
def hard_assign(scores: torch.Tensor):
    # straight-through hard assignment over the last dimension
    best = scores.argmax(dim=-1)
    hard = F.one_hot(best).to(scores.dtype)
    return hard * scores


def example():
    # every column wins somewhere, so the inferred width matches the data's
    return hard_assign, (torch.randn(6, 4) + 10 * torch.eye(4)[[0, 1, 2, 3, 3, 1]],)
