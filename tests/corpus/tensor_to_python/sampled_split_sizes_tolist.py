"""Split sizes computed from grid tensors and turned into a list with `.tolist()` (GM202) before
`torch.split`, not in a loop; also as the iterable of a list comprehension (evaluated once,
outside the comprehension's loop).
Reproduces transformers glm4v/modular_glm4v.py:770, video_llama_3/modeling_video_llama_3.py:595-596,
embedding_gemma2/modeling_embedding_gemma2.py:687-691 and ultravbert/modeling_ultravbert.py:262-264."""
import torch
from torch import nn


class Model(nn.Module):
    spatial_merge_size = 2
    pooling_kernel_size = 2

    def glm4v_split(self, pooler_output, video_grid_thw):
        split_sizes = (video_grid_thw.prod(-1) // self.spatial_merge_size**2).tolist()  # expect: GM202
        return torch.split(pooler_output, split_sizes)

    def video_llama_split(self, image_embeds, image_grid_thw, image_merge_sizes):
        split_sizes = image_grid_thw.prod(dim=1) // (image_merge_sizes**2)
        return torch.split(image_embeds, split_sizes.tolist())  # expect: GM202

    def embedding_gemma_split(self, pooler_output, pixel_values, image_position_ids):
        output_length = pixel_values.shape[-2] // (self.pooling_kernel_size**2)
        k_squared = int((image_position_ids.shape[1] // output_length) ** 0.5) ** 2
        non_pad_mask = (image_position_ids != -1).all(dim=-1)
        split_sizes = (non_pad_mask.sum(dim=-1) // k_squared).tolist()  # expect: GM202
        return torch.split(pooler_output, split_sizes)

    def ultravbert_split(self, image_features, pixel_values: torch.Tensor):
        batch_size, num_images, num_channels, height, width = pixel_values.shape
        pixel_values = pixel_values.view(batch_size * num_images, *pixel_values.shape[2:])
        nb_values_per_image = pixel_values.shape[1:].numel()
        real_images_inds = (pixel_values == 0.0).sum(dim=(-1, -2, -3)) != nb_values_per_image
        real_images_inds[0] |= ~torch.any(real_images_inds)
        num_real_images_per_batch = real_images_inds.view(batch_size, num_images).sum(dim=1)
        return [
            f.reshape(-1, f.shape[-1]) for f in image_features.split(num_real_images_per_batch.tolist())  # expect: GM202
        ]

    def forward(self, pooler_output, grid_thw, merge_sizes, pixel_values, image_position_ids, images):
        a = self.glm4v_split(pooler_output, grid_thw)
        b = self.video_llama_split(pooler_output, grid_thw, merge_sizes)
        c = self.embedding_gemma_split(pooler_output[:6], pixel_values, image_position_ids)
        d = self.ultravbert_split(pooler_output.view(4, 2, 4), images)
        return a, b, c, d


def example():
    grid_thw = torch.tensor([[1, 4, 4], [1, 4, 4]])
    pos = torch.zeros(2, 16, 2, dtype=torch.long)
    pos[1, 8:] = -1
    images = torch.randn(2, 2, 1, 2, 2)
    return Model().eval(), (
        torch.randn(8, 4),
        grid_thw,
        torch.tensor([2, 2]),
        torch.randn(2, 3, 16, 4),
        pos,
        images,
    )
