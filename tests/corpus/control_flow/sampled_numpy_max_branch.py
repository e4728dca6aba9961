"""`if ndarray.max() > int:` on NumPy arrays built from Python ints (np.arange/broadcast_to/
reshape): dynamo traces NumPy as tensors, so the test is data-dependent and breaks (GM101) when
it is reached. Reproduces, in isolation, the last part of `_compute_mask_indices` in
transformers sew/modeling_sew.py:639-656 (same code in wav2vec2_bert:932, sew_d:154, speecht5:200)."""
import numpy as np
import torch


@torch.compile
def span_mask(hidden_states, spec_aug_mask_idxs, mask_length: int = 2):
    batch_size, sequence_length = hidden_states.shape[:2]
    max_num_masked_span = spec_aug_mask_idxs.shape[1]
    spec_aug_mask = np.zeros((batch_size, sequence_length), dtype=bool)
    spec_aug_mask_idxs = spec_aug_mask_idxs.numpy()

    # expand masked indices to masked spans
    spec_aug_mask_idxs = np.broadcast_to(
        spec_aug_mask_idxs[:, :, None], (batch_size, max_num_masked_span, mask_length)
    )
    spec_aug_mask_idxs = spec_aug_mask_idxs.reshape(batch_size, max_num_masked_span * mask_length)

    # add offset to the starting indexes so that indexes now create a span
    offsets = np.arange(mask_length)[None, None, :]
    offsets = np.broadcast_to(offsets, (batch_size, max_num_masked_span, mask_length)).reshape(
        batch_size, max_num_masked_span * mask_length
    )
    spec_aug_mask_idxs = spec_aug_mask_idxs + offsets

    # ensure that we cannot have indices larger than sequence_length
    if spec_aug_mask_idxs.max() > sequence_length - 1:  # expect: GM101
        spec_aug_mask_idxs[spec_aug_mask_idxs > sequence_length - 1] = sequence_length - 1

    # scatter indices to mask
    np.put_along_axis(spec_aug_mask, spec_aug_mask_idxs, 1, -1)
    return hidden_states * torch.from_numpy(spec_aug_mask)[..., None]


def example():
    return span_mask, (torch.randn(2, 10, 4), torch.tensor([[0, 4], [3, 9]]))
