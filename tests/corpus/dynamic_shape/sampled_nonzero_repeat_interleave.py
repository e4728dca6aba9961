"""Data-dependent output shapes (GM301): `.all(dim=3).nonzero()` under `torch.no_grad()`,
`torch.nonzero(mask)` of a padded ground-truth mask, and `torch.repeat_interleave(hw, t, dim=0)`
with tensor repeats and no `output_size`.
Reproduces transformers qwen4_exp/modular_qwen4_exp.py:911-916, rt_detr/modular_rt_detr.py:821-834
and glm4v_moe/modeling_glm4v_moe.py:1194-1199."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(6, 4)

    def reverse_embedding(self, inputs_embeds):
        with torch.no_grad():
            input_ids = (
                (inputs_embeds[:, :, None, :] == self.embed_tokens.weight[None, None, :, :]).all(dim=3).nonzero()[:, 2]  # expect: GM301
            )
            try:
                input_ids = input_ids.view(inputs_embeds.shape[:2])
            except RuntimeError:
                raise RuntimeError("inputs_embeds do not match the embedding weights")
        return input_ids

    def denoising_positive_idx(self, targets, num_denoising_queries=4):
        num_ground_truths = [len(t["class_labels"]) for t in targets]
        device = targets[0]["class_labels"].device
        max_gt_num = max(num_ground_truths)
        num_groups_denoising_queries = num_denoising_queries // max_gt_num
        batch_size = len(num_ground_truths)
        pad_gt_mask = torch.zeros([batch_size, max_gt_num], dtype=torch.bool, device=device)
        for i in range(batch_size):
            num_gt = num_ground_truths[i]
            if num_gt > 0:
                pad_gt_mask[i, :num_gt] = 1
        pad_gt_mask = pad_gt_mask.tile([1, 2 * num_groups_denoising_queries])
        negative_gt_mask = torch.zeros([batch_size, max_gt_num * 2, 1], device=device)
        negative_gt_mask[:, max_gt_num:] = 1
        negative_gt_mask = negative_gt_mask.tile([1, num_groups_denoising_queries, 1])
        positive_gt_mask = 1 - negative_gt_mask
        positive_gt_mask = positive_gt_mask.squeeze(-1) * pad_gt_mask
        denoise_positive_idx = torch.nonzero(positive_gt_mask)[:, 1]  # expect: GM301
        denoise_positive_idx = torch.split(
            denoise_positive_idx, [n * num_groups_denoising_queries for n in num_ground_truths]
        )
        return denoise_positive_idx

    def video_grid(self, video_grid_thw):
        t = video_grid_thw[:, 0]
        hw = video_grid_thw[:, 1:]
        # repeat each (h,w) row `t` times
        flattened_hw = torch.repeat_interleave(hw, t, dim=0)  # expect: GM301
        prefix_ones = video_grid_thw.new_ones(flattened_hw.shape[0], 1)
        return torch.cat([prefix_ones, flattened_hw], dim=1)

    def forward(self, inputs_embeds, targets, video_grid_thw):
        ids = self.reverse_embedding(inputs_embeds)
        idx = self.denoising_positive_idx(targets)
        grid = self.video_grid(video_grid_thw)
        return ids, idx, grid


def example():
    m = Model().eval()
    inputs_embeds = m.embed_tokens(torch.tensor([[1, 2, 3]])).detach()
    targets = [{"class_labels": torch.tensor([1, 2])}, {"class_labels": torch.tensor([3])}]
    return m, (inputs_embeds, targets, torch.tensor([[2, 4, 4], [1, 2, 2]]))
