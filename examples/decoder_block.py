"""A small decoder of the kind Hugging Face models are made of, with graph breaks that
torch.compile meets in such code. `graphmend check examples/` lists them; `graphmend fix
--unsafe-fixes --diff examples/` shows the mends on offer."""

import math

import torch
import torch.nn.functional as F
from torch import nn


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * x * torch.rsqrt(variance + self.eps)


class Attention(nn.Module):
    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, mask=None) -> torch.Tensor:
        batch, length, dim = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        k = k.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        v = v.view(batch, length, self.heads, dim // self.heads).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        if mask is not None:  # a None check is decided at trace time: no break
            scores = scores.masked_fill(mask == 0, float("-inf"))
        probs = F.softmax(scores, dim=-1)
        if probs.isnan().any():  # branch on a tensor value: graph break
            probs = torch.nan_to_num(probs)
        out = (probs @ v).transpose(1, 2).reshape(batch, length, dim)
        return self.out(out)


class MLP(nn.Module):
    def __init__(self, dim: int, hidden: int):
        super().__init__()
        self.up = nn.Linear(dim, hidden)
        self.down = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = F.gelu(self.up(x))
        print("mlp activation mean:", h.mean())  # print in a compiled region: graph break
        return self.down(h)


class DecoderBlock(nn.Module):
    def __init__(self, dim: int = 64, heads: int = 4):
        super().__init__()
        self.norm1 = RMSNorm(dim)
        self.attn = Attention(dim, heads)
        self.norm2 = RMSNorm(dim)
        self.mlp = MLP(dim, 4 * dim)

    def forward(self, x: torch.Tensor, mask=None) -> torch.Tensor:
        if x.dim() == 2:  # a shape test is static: no break
            x = x.unsqueeze(0)
        h = x + self.attn(self.norm1(x), mask)
        if h.abs().max() > 1e4:  # branch on a tensor value: graph break
            h = h.clamp(-1e4, 1e4)
        return h + self.mlp(self.norm2(h))


@torch.compile
def sample_next_token(logits: torch.Tensor, temperature: float = 1.0) -> torch.Tensor:
    scaled = logits / temperature
    for _ in range(4):
        if scaled.max() > 50.0:  # a break inside a loop: the whole function runs eagerly
            scaled = scaled / 2
    return torch.argmax(F.softmax(scaled, dim=-1), dim=-1)


def example():
    """The profile entry point: the model and example inputs."""
    torch.manual_seed(0)
    model = DecoderBlock().eval()
    return model, (torch.randn(2, 16, 64),)
