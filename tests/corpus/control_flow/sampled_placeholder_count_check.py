"""A count of mask positions (`mask.sum()`, a tensor) compared with a Python int from a shape
and tested by `if ... : raise` branches on tensor data (GM101).
Reproduces transformers glm_image/modular_glm_image.py:742 (get_placeholder_mask)."""
import torch
from torch import nn


class Model(nn.Module):
    image_token_id = 7

    def forward(self, input_ids, image_ids):
        special_image_mask = input_ids == self.image_token_id
        n_placeholder_tokens = special_image_mask.sum()
        n_image_tokens = image_ids.shape[0]

        if n_placeholder_tokens != n_image_tokens:  # expect: GM101
            raise ValueError(
                f"Number of image placeholder tokens ({n_placeholder_tokens.item()}) does not match "
                f"number of image tokens from VQVAE ({n_image_tokens})"
            )

        return special_image_mask


def example():
    input_ids = torch.tensor([[1, 7, 7, 2, 7, 3]])
    return Model().eval(), (input_ids, torch.zeros(3, dtype=torch.long))
