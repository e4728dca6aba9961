"""Boolean-mask reads of per-sample rows inside a Python loop over the batch (GM301): the first
read breaks inside the loop, so dynamo skips the frame.
Reproduces transformers cosmos3_omni/modeling_cosmos3_omni.py:216-220 and
glm_image/modular_glm_image.py:523-532 (get_rope_index)."""
import torch


def cosmos_rope_index(
    input_ids: torch.LongTensor, mm_token_type_ids: torch.IntTensor, attention_mask: torch.Tensor | None = None
):
    lengths = []
    for batch_idx, current_input_ids in enumerate(input_ids):
        input_token_type = mm_token_type_ids[batch_idx]
        if attention_mask is not None:
            current_input_ids = current_input_ids[attention_mask[batch_idx].bool()]  # expect: GM301
            input_token_type = input_token_type[attention_mask[batch_idx].bool()]
        lengths.append(current_input_ids.shape[0] + input_token_type.shape[0])
    return lengths


def glm_image_rope_index(input_ids: torch.LongTensor | None = None, attention_mask: torch.LongTensor | None = None):
    batch_size, seq_len = input_ids.shape
    all_lengths = []
    for batch_idx in range(batch_size):
        curr_input_ids = input_ids[batch_idx]
        if attention_mask is not None and attention_mask.shape[1] == seq_len:
            valid_mask = attention_mask[batch_idx] == 1
            curr_input_ids_valid = curr_input_ids[valid_mask]  # expect: GM301
        else:
            curr_input_ids_valid = curr_input_ids
        all_lengths.append(curr_input_ids_valid.sum())
    return all_lengths


@torch.compile
def both(input_ids, mm_token_type_ids, attention_mask):
    return cosmos_rope_index(input_ids, mm_token_type_ids, attention_mask), glm_image_rope_index(
        input_ids, attention_mask
    )


def example():
    ids = torch.tensor([[1, 2, 3, 0], [4, 5, 0, 0]])
    return both, (ids, torch.zeros_like(ids), (ids != 0).long())
