# mend-applicability: safe
import torch


@torch.compile
def flagged(x: torch.Tensor):
    big = (x > 1).sum()
    y = torch.where(torch.as_tensor(big).bool(), x.clamp(max=1.0), x * 2)
    return y


def example():
    return flagged, (torch.randn(6) * 2,)
