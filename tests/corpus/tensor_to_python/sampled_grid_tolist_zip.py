"""`image_grid_hw.prod(-1).tolist()` as split sizes (GM202), then `zip(..., image_grid_hw.tolist())`
as the iterable of a list comprehension: the iterable is evaluated once in the enclosing frame,
and its `.tolist()` breaks there too (GM202).
Reproduces transformers nemotron_h_omni/modular_nemotron_h_omni.py:205-214."""
import torch
from torch import nn


class Model(nn.Module):
    downsample_ratio = 0.5

    def pixel_shuffle(self, x, scale_factor=0.5):
        n, w, h, c = x.size()
        x = x.view(n, w, int(h * scale_factor), int(c / scale_factor))
        x = x.permute(0, 2, 1, 3).contiguous()
        x = x.view(n, int(h * scale_factor), int(w * scale_factor), int(c / (scale_factor * scale_factor)))
        return x

    def forward(self, image_features: torch.Tensor, image_grid_hw: torch.LongTensor):
        image_features = image_features.split(image_grid_hw.prod(-1).tolist())  # expect: GM202
        image_features = torch.cat(
            [
                self.pixel_shuffle(
                    features.view(1, grid_height, grid_width, -1), scale_factor=self.downsample_ratio
                ).flatten(0, 2)
                for features, (grid_height, grid_width) in zip(image_features, image_grid_hw.tolist())  # expect: GM202
            ]
        )
        split_sizes = (image_grid_hw.prod(-1) // 2**2).tolist()  # expect: GM202
        return image_features.split(split_sizes)


def example():
    return Model().eval(), (torch.randn(8, 4), torch.tensor([[2, 2], [2, 2]]))
