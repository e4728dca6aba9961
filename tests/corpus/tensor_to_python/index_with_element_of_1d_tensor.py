"""Indexing with an element of a 1-d tensor (`self.sqrt_alphas[self.timesteps[0]]`, a scheduler's
property as diffusers writes it): the element is a 0-d tensor made in the graph, and indexing
with it reads its value ("Data dependent operator"). The 1-d tensor is known by its making
(`torch.tensor([...])` in another method). dynamo cannot resume after this break: the property's
caller reports step_unsupported on its call line, which graphmend does not predict (a known
gap)."""
import torch
from torch import nn


class Scheduler:
    def __init__(self, steps=16):
        alphas = torch.cumprod(torch.linspace(0.99, 0.5, steps), dim=0)
        self.sqrt_alphas = torch.sqrt(alphas)

    def set_timesteps(self, device=None):
        self.timesteps = torch.tensor([12, 5], dtype=torch.long, device=device)
        self.sqrt_alphas = self.sqrt_alphas.to(device)

    @property
    def init_sigma(self):
        return self.sqrt_alphas[self.timesteps[0]]  # expect: GM202


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.scheduler = Scheduler()
        self.proj = nn.Linear(8, 8)

    def forward(self, x):
        self.scheduler.set_timesteps(device=x.device)
        h = self.proj(x) * self.scheduler.init_sigma  # expect: GM202
        return h.sum()


def example():
    return Decoder().eval(), (torch.randn(4, 8),)
