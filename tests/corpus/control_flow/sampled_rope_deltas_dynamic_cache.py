"""With a DynamicCache-like cache, `get_seq_length()` returns `keys.shape[-2]`, a Python int, so
`past_key_values_length == 0` / `> 0` fold even though `past_key_values` is annotated
`torch.Tensor | None`: no break.
Reproduces transformers qwen3_5_moe/modeling_qwen3_5_moe.py:1631, glm4v_moe/modeling_glm4v_moe.py:1285,
qwen2_vl/modeling_qwen2_vl.py:1090-1103 and glm_image/modular_glm_image.py:774
(compute_3d_position_ids)."""
import torch
from torch import nn


class DynamicLayer:
    def __init__(self):
        self.is_initialized = True
        self.keys = torch.zeros(1, 2, 3, 4)

    def get_seq_length(self) -> int:
        if not self.is_initialized or self.keys.numel() == 0:
            return 0
        return self.keys.shape[-2]


class Cache:
    def __init__(self):
        self.layers = [DynamicLayer()]

    def get_seq_length(self, layer_idx: int = 0) -> int:
        if layer_idx >= len(self.layers):
            return 0
        return self.layers[layer_idx].get_seq_length()


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.rope_deltas = torch.zeros(1, 1, dtype=torch.long)

    def get_rope_index(self, input_ids, image_grid_thw=None, video_grid_thw=None, attention_mask=None, mm_token_type_ids=None):
        position_ids = torch.arange(input_ids.shape[1]).expand(3, input_ids.shape[0], -1)
        return position_ids, torch.zeros(input_ids.shape[0], 1, dtype=torch.long)

    def compute_3d_position_ids(
        self,
        input_ids: torch.Tensor | None,
        image_grid_thw: torch.Tensor | None,
        video_grid_thw: torch.Tensor | None,
        inputs_embeds: torch.Tensor | None,
        attention_mask: torch.Tensor | None,
        past_key_values: torch.Tensor | None = None,
        mm_token_type_ids: torch.IntTensor | None = None,
    ) -> torch.Tensor | None:
        past_key_values_length = 0 if past_key_values is None else past_key_values.get_seq_length()
        has_multimodal = image_grid_thw is not None or video_grid_thw is not None
        if has_multimodal and mm_token_type_ids is None and input_ids is not None:
            raise ValueError("Multimodal data was passed but `mm_token_type_ids` is missing.")
        can_compute_mrope = input_ids is not None and mm_token_type_ids is not None and has_multimodal

        position_ids = None
        if can_compute_mrope and (self.rope_deltas is None or past_key_values_length == 0):
            position_ids, rope_deltas = self.get_rope_index(
                input_ids,
                image_grid_thw=image_grid_thw,
                video_grid_thw=video_grid_thw,
                attention_mask=attention_mask,
                mm_token_type_ids=mm_token_type_ids,
            )
            self.rope_deltas = rope_deltas
        elif self.rope_deltas is not None and (past_key_values_length > 0 or input_ids is None):
            batch_size, seq_length, _ = inputs_embeds.shape
            position_ids = torch.arange(seq_length) + past_key_values_length
            position_ids = position_ids.view(1, 1, -1).expand(3, batch_size, -1) + self.rope_deltas
        return position_ids

    def forward(self, input_ids, inputs_embeds, image_grid_thw, mm_token_type_ids, past_key_values):
        a = self.compute_3d_position_ids(
            input_ids, image_grid_thw, None, inputs_embeds, None, past_key_values, mm_token_type_ids
        )
        b = self.compute_3d_position_ids(None, None, None, inputs_embeds, None, past_key_values, None)
        return a, b


def example():
    input_ids = torch.ones(1, 4, dtype=torch.long)
    grid = torch.tensor([[1, 2, 2]])
    return Model().eval(), (input_ids, torch.randn(1, 4, 8), grid, torch.zeros(1, 4, dtype=torch.int), Cache())
