"""torch/jit is on dynamo's skip list: torch.jit.isinstance (MONAI's UNet decoders test an
optional skip connection with it) and torch.jit.fork/wait are skipped functions (GB0007).
torch.jit.is_scripting() folds to False, and torch.jit.annotate and _unwrap_optional are
traced."""
from typing import Optional

import torch
from torch import nn


class Up(nn.Module):
    def forward(self, x: torch.Tensor, skip: Optional[torch.Tensor]):
        y = x * 2
        if skip is not None and torch.jit.isinstance(skip, torch.Tensor):  # expect: GM501
            y = y + skip
        if not torch.jit.is_scripting():
            y = y - 1
        count = torch.jit.annotate(Optional[int], None)
        z = torch.jit._unwrap_optional(y)
        future = torch.jit.fork(torch.relu, z)  # expect: GM501
        return torch.jit.wait(future) + (count is None)  # expect: GM501


def example():
    return Up().eval(), (torch.randn(4, 8), torch.randn(4, 8))
