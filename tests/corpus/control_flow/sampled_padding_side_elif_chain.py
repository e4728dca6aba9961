"""An if/elif chain on `torch.any(...)` results (0-d bool tensors): each test that runs is a
data-dependent branch (GM101), the `elif`s included, since dynamo resumes after each break.
Reproduces transformers qwen2_audio/modeling_qwen2_audio.py:541-545 (padding side detection)."""
import torch
from torch import nn


class Model(nn.Module):
    padding_side = "left"

    def forward(self, input_ids, attention_mask):
        batch_size, sequence_length = input_ids.shape
        _left_padding = torch.any(attention_mask[:, 0] == 0)
        _right_padding = torch.any(attention_mask[:, -1] == 0)

        left_padding = True
        if batch_size > 1:
            if _left_padding and not _right_padding:  # expect: GM101
                left_padding = True
            elif not _left_padding and _right_padding:  # expect: GM101
                left_padding = False
            elif not _left_padding and not _right_padding:  # expect: GM101
                # both side is 1, so cannot tell
                left_padding = self.padding_side == "left"
            else:
                # invalid attention_mask
                raise ValueError(f"both side of attention_mask has zero, invalid. {attention_mask}")
        return input_ids * 2 if left_padding else input_ids


def example():
    return Model().eval(), (torch.ones(2, 5, dtype=torch.long), torch.ones(2, 5, dtype=torch.long))
