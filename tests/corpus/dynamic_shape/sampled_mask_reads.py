"""Boolean-mask reads `x[mask]` with masks built from token ids, lengths or an input bool mask:
each read has a data-dependent length and breaks (GM301), also when the mask goes through
`.to(device)`, `~mask`, or a `.bool()` conversion.
Reproduces transformers gradium_phonon_tts/modeling_gradium_phonon_tts.py:801-811,
audioflamingo3/modeling_audioflamingo3.py:483-486, glmasr/modeling_glmasr.py:389-396,
videomae/modeling_videomae.py:576-579 and idefics3/modeling_idefics3.py:580-584."""
import torch
from torch import nn


class Model(nn.Module):
    audio_bos_token_id = 5
    audio_latent_token_id = 6

    def __init__(self):
        super().__init__()
        self.position_embeddings = nn.Parameter(torch.randn(1, 4, 3), requires_grad=False)

    def gradium_loss(
        self,
        input_ids: torch.LongTensor,
        hidden_states: torch.Tensor,
        labels_mask: torch.Tensor,
        normalized_labels: torch.Tensor,
    ):
        latent_positions = (input_ids == self.audio_bos_token_id) | (
            input_ids == self.audio_latent_token_id
        )
        frame_mask = torch.cat([torch.ones_like(labels_mask[:, :1]), labels_mask], dim=1).bool()
        is_target = torch.cat([labels_mask, torch.zeros_like(labels_mask[:, :1])], dim=1)
        is_target = is_target[frame_mask].bool().to(hidden_states.device)  # expect: GM301
        latent_hidden_states = hidden_states[latent_positions.to(hidden_states.device)]  # expect: GM301
        conditions = latent_hidden_states[is_target]  # expect: GM301
        targets = normalized_labels[labels_mask.bool()].to(hidden_states.device)  # expect: GM301
        return ((conditions - targets) ** 2).mean()

    def audio_pooler(self, audio_embeds: torch.Tensor, input_features_mask: torch.Tensor):
        audio_lengths = input_features_mask.sum(-1)
        for padding, kernel_size, stride in [(1, 3, 1), (1, 3, 2)]:
            audio_lengths = (audio_lengths + 2 * padding - (kernel_size - 1) - 1) // stride + 1
        merge_factor = 4
        post_lengths = (audio_lengths - merge_factor) // merge_factor + 1
        valid_mask = torch.arange(audio_embeds.shape[1], device=post_lengths.device)[None, :] < post_lengths[:, None]
        return audio_embeds[valid_mask.to(audio_embeds.device)]  # expect: GM301

    def videomae_positions(self, pixel_values: torch.FloatTensor, bool_masked_pos: torch.BoolTensor):
        batch_size, num_channels = pixel_values.shape[0], 3
        expanded_position_embeddings = self.position_embeddings.expand(batch_size, -1, -1).type_as(pixel_values)
        expanded_position_embeddings = expanded_position_embeddings.detach().to(device=pixel_values.device, copy=True)
        pos_emb_visible = expanded_position_embeddings[~bool_masked_pos].reshape(batch_size, -1, num_channels)  # expect: GM301
        pos_emb_mask = expanded_position_embeddings[bool_masked_pos].reshape(batch_size, -1, num_channels)  # expect: GM301
        return pos_emb_visible, pos_emb_mask

    def idefics_images(self, pixel_values: torch.Tensor):
        batch_size, num_images, num_channels, height, width = pixel_values.shape
        pixel_values = pixel_values.view(batch_size * num_images, *pixel_values.shape[2:])
        nb_values_per_image = pixel_values.shape[1:].numel()
        real_images_inds = (pixel_values == 0.0).sum(dim=(-1, -2, -3)) != nb_values_per_image
        num_real_images_per_batch = real_images_inds.view(batch_size, num_images).sum(dim=1)
        pixel_values = pixel_values[real_images_inds].contiguous()  # expect: GM301
        return pixel_values, num_real_images_per_batch

    def forward(self, input_ids, hidden_states, labels_mask, normalized_labels, audio_embeds, features_mask,
                pixel_values, bool_masked_pos, images):
        loss = self.gradium_loss(input_ids, hidden_states, labels_mask, normalized_labels)
        pooled = self.audio_pooler(audio_embeds, features_mask)
        vis, msk = self.videomae_positions(pixel_values, bool_masked_pos)
        imgs, n = self.idefics_images(images)
        return loss, pooled, vis, msk, imgs, n


def example():
    input_ids = torch.tensor([[1, 5, 6, 6, 2]])
    labels_mask = torch.tensor([[1, 1]])
    images = torch.randn(1, 2, 3, 4, 4)
    images[0, 1] = 0.0
    return Model().eval(), (
        input_ids,
        torch.randn(1, 5, 4),
        labels_mask,
        torch.randn(1, 2, 4),
        torch.randn(2, 6, 4),
        torch.ones(2, 40),
        torch.randn(2, 3),
        torch.tensor([[True, False, True, False], [False, True, True, False]]),
        images,
    )
