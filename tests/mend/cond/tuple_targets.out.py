# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
import torch


@torch.compile
def halves(h: torch.Tensor):
    def gm_true_branch(h):
        a, b = h.chunk(2, dim=-1)
        return a.clone(), b.clone()
    def gm_false_branch(h):
        b, a = h.chunk(2, dim=-1)
        return a.clone(), b.clone()
    a, b = torch.cond(h.sum() > 0, gm_true_branch, gm_false_branch, (h,))
    return a - b


def example():
    return halves, (torch.randn(3, 4),)
