"""A `@torch.no_grad()` method whose `.item()` guard breaks first (GM201); dynamo resumes after it,
and the boolean-mask read `labels[labels_mask.bool()]` breaks next (GM301).
Reproduces transformers gradium_phonon_tts/modeling_gradium_phonon_tts.py:860-874."""
import torch
from torch import nn


class Model(nn.Module):
    latent_stats_ema_steps = 10
    latent_stats_ema_decay = 0.9

    def __init__(self):
        super().__init__()
        self._latent_stats_frozen = False
        self.register_buffer("latent_stats_num_updates", torch.tensor(0))
        self.register_buffer("latent_mean", torch.zeros(4))
        self.register_buffer("latent_std", torch.ones(4))

    @torch.no_grad()
    def update_latent_stats(self, labels: torch.Tensor, labels_mask: torch.Tensor):
        if self._latent_stats_frozen:
            return
        if self.latent_stats_num_updates.item() >= self.latent_stats_ema_steps:  # expect: GM201
            self._latent_stats_frozen = True
            return
        frames = labels[labels_mask.bool()].to(self.latent_mean.dtype)  # expect: GM301
        decay = self.latent_stats_ema_decay
        self.latent_mean.mul_(decay).add_(frames.mean(dim=0), alpha=1 - decay)
        self.latent_std.mul_(decay).add_(frames.std(dim=0), alpha=1 - decay)

    def forward(self, labels, labels_mask):
        self.update_latent_stats(labels, labels_mask)
        return labels * 2


def example():
    return Model().eval(), (torch.randn(2, 3, 4), torch.tensor([[1, 1, 0], [1, 0, 0]]))
