"""A tensor slice bound read inside a statement written over several lines (torchaudio's Emformer
attention: `torch.cat([key[: mems.size(0) + right_context_blocks_length], ...])`). The read is
Tensor.item() at a subscript, where dynamo cannot resume: it compiles the function up to the
last point its stack was empty, the statement's first instruction, and reports that line too
(explain: step_unsupported) besides the subscript's. A statement whose first instruction is on
the subscript's own line gives one line; nothing after the first such break is reported (the
rest of the function runs eagerly)."""
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(8, 8)

    def forward(self, key: torch.Tensor, mems: torch.Tensor, lengths: torch.Tensor,
                left_context_key: torch.Tensor) -> torch.Tensor:
        T = key.size(0)
        right_context_blocks_length = T - torch.max(lengths).int() - mems.size(0)
        key = torch.cat(  # expect: GM202
            [
                key[: mems.size(0) + right_context_blocks_length],  # expect: GM202
                left_context_key,
                key[mems.size(0) + right_context_blocks_length :],
            ],
        )
        return self.proj(key)


def example():
    return Attention().eval(), (torch.randn(6, 2, 8), torch.randn(2, 2, 8), torch.tensor([3, 2]),
                                torch.randn(1, 2, 8))
