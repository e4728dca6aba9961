"""`new_zeros(mask.sum(), n)`: a tensor computed in the graph passed where an int size is needed,
inside a loop over per-layer embeddings; the boolean-mask reads before the loop are dynamic
shape operators (GM301).
Reproduces transformers cohere_compass/modeling_cohere_compass.py:1304-1319."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(
        self,
        image_mask: torch.Tensor | None,
        video_mask: torch.Tensor | None,
        deepstack_image_embeds: list[torch.Tensor] | None,
        deepstack_video_embeds: list[torch.Tensor] | None,
    ):
        image_mask = image_mask[..., 0]
        video_mask = video_mask[..., 0]
        visual_pos_masks = image_mask | video_mask
        deepstack_visual_embeds = []
        image_mask_joint = image_mask[visual_pos_masks]  # expect: GM301
        video_mask_joint = video_mask[visual_pos_masks]  # expect: GM301
        for img_embed, vid_embed in zip(deepstack_image_embeds, deepstack_video_embeds):
            img_embed = torch.cat(img_embed, dim=0)
            vid_embed = torch.cat(vid_embed, dim=0)
            embed_joint = img_embed.new_zeros(visual_pos_masks.sum(), img_embed.shape[-1])  # expect: GM202

            embed_joint[image_mask_joint, :] = img_embed
            embed_joint[video_mask_joint, :] = vid_embed
            deepstack_visual_embeds.append(embed_joint)
        return visual_pos_masks, deepstack_visual_embeds


def example():
    image_mask = torch.tensor([[1, 1, 0, 0, 0, 0]], dtype=torch.bool)[..., None].expand(1, 6, 4)
    video_mask = torch.tensor([[0, 0, 0, 1, 1, 1]], dtype=torch.bool)[..., None].expand(1, 6, 4)
    img = [[torch.randn(2, 4)], [torch.randn(2, 4)]]
    vid = [[torch.randn(3, 4)], [torch.randn(3, 4)]]
    return Model().eval(), (image_mask, video_mask, img, vid)
