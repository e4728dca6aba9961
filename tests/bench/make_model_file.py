#!/usr/bin/env python3
"""Writes a realistic PyTorch model file of about N lines for graphmend's latency benchmark.

usage: make_model_file.py N OUT [--seed S]

The file holds the usual imports, many nn.Module subclasses (attention blocks, MLPs, norms,
embeddings, convolution stems, routers, heads) whose __init__ builds layers and whose forward
methods are 10-40 lines of ordinary tensor code (matmuls, softmax, masks, reshapes, branches on
shapes), a few @torch.compile functions, and a small share of graph-break causes (about one per
150 lines: branches on tensor data and print() calls inside forward) so that the server has
diagnostics to publish. The output is deterministic for a given N and seed.

Every tensor a graph-break cause reads is an annotated torch.Tensor parameter, so the analysis
does not have to guess that it is a tensor.
"""

from __future__ import annotations

import argparse
import random
import sys

HEADER = '''\
"""Model zoo for throughput experiments (generated for graphmend's latency benchmark)."""
import math

import torch
from torch import nn
import torch.nn.functional as F


'''

BREAK_EVERY = 150  # lines between graph-break causes, on average


class Writer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.next_break = BREAK_EVERY // 2
        self.breaks = 0
        self.classes: list[str] = []

    def emit(self, block: list[str]) -> None:
        self.lines.extend(block)

    def want_break(self) -> bool:
        return len(self.lines) >= self.next_break

    def took_break(self) -> None:
        self.breaks += 1
        self.next_break = len(self.lines) + self.rng.randint(BREAK_EVERY * 2 // 3,
                                                              BREAK_EVERY * 4 // 3)


def indent(lines: list[str], depth: int) -> list[str]:
    pad = "    " * depth
    return [pad + line if line else "" for line in lines]


# ------------------------------------------------------------------ forward-body fragments
# Each fragment reads and writes the running activation `h` (shape [B, T, C] unless noted) and
# may read the annotated input `x`.

def shape_branch(rng: random.Random) -> list[str]:
    choice = rng.randrange(4)
    if choice == 0:
        return ["if x.dim() == 3:",
                "    h = h.reshape(x.size(0), x.size(1), -1)",
                "else:",
                "    h = h.reshape(x.size(0), -1)"]
    if choice == 1:
        return ["if h.shape[-1] != self.dim:",
                "    h = F.pad(h, (0, self.dim - h.shape[-1]))"]
    if choice == 2:
        return ["if x.dim() == 2:",
                "    h = h.unsqueeze(1)"]
    return ["if h.size(1) > self.max_len:",
            "    h = h[:, -self.max_len:]"]


def filler(rng: random.Random) -> list[str]:
    choice = rng.randrange(12)
    return [
        ["h = F.dropout(h, p=self.dropout_p, training=self.training)"],
        ["h = h + self.residual_scale * torch.tanh(h)"],
        ["h = h.contiguous().view(h.size(0), -1, h.size(-1))"],
        ["scale = 1.0 / math.sqrt(h.size(-1))", "h = h * scale"],
        ["h = torch.clamp(h, min=-self.clip, max=self.clip)"],
        ["h = F.gelu(h, approximate=\"tanh\")"],
        ["gate = torch.sigmoid(h[..., : h.size(-1) // 2])",
         "h = torch.cat([h[..., h.size(-1) // 2 :] * gate, gate], dim=-1)"],
        ["h = h.transpose(1, 2).contiguous()", "h = h.transpose(1, 2)"],
        ["mean = h.mean(dim=-1, keepdim=True)", "var = h.var(dim=-1, keepdim=True, unbiased=False)",
         "h = (h - mean) * torch.rsqrt(var + self.eps)"],
        ["h = torch.where(h > 0, h, h * self.negative_slope)"],
        ["h = h.float() if h.dtype == torch.float16 else h"],
        ["residual = h", "h = F.silu(h)", "h = residual + 0.5 * h"],
    ][choice]


def graph_break(rng: random.Random) -> list[str]:
    choice = rng.randrange(6)
    if choice == 0:
        return ["if x.sum() > 0:", "    h = h * 0.5"]
    if choice == 1:
        return ["if x.mean() < self.eps:", "    h = h + self.eps"]
    if choice == 2:
        return ["if x.max() > self.clip:", "    h = torch.clamp(h, max=self.clip)"]
    if choice == 3:
        return ['print("activation", h.shape)']
    if choice == 4:
        return ["print(x)"]
    return ['print(f"{self.__class__.__name__}: {h.norm():.3f}")']


def pad_forward(w: Writer, body: list[str], target: int, insert_at: int) -> list[str]:
    """Inserts fragments (and perhaps one graph-break cause) before body[insert_at] until the
    forward has about `target` lines."""
    rng = w.rng
    fragments: list[list[str]] = []
    while len(body) + sum(map(len, fragments)) < target:
        fragments.append(shape_branch(rng) if rng.random() < 0.2 else filler(rng))
    if w.want_break():
        fragments.insert(rng.randrange(len(fragments) + 1), graph_break(rng))
        w.took_break()
    extra = [line for fragment in fragments for line in fragment]
    return body[:insert_at] + extra + body[insert_at:]


COMMON_INIT = [
    "self.dim = dim",
    "self.eps = eps",
    "self.clip = 30.0",
    "self.max_len = max_len",
    "self.dropout_p = dropout",
    "self.negative_slope = 0.01",
    "self.residual_scale = nn.Parameter(torch.ones(1) * 0.1)",
]


def method(name: str, signature: str, body: list[str], returns: str = "") -> list[str]:
    head = f"def {name}({signature}){returns}:"
    return [head] + indent(body, 1)


def make_class(w: Writer, n: int) -> list[str]:
    rng = w.rng
    kind = rng.randrange(9)
    dim = rng.choice([256, 384, 512, 768, 1024, 2048])
    heads = rng.choice([4, 8, 12, 16])
    hidden = dim * rng.choice([2, 4])
    target = rng.randint(10, 40)
    sig_init = (f"self, dim: int = {dim}, eps: float = 1e-5, max_len: int = 4096, "
                f"dropout: float = {rng.choice([0.0, 0.1, 0.2])}")
    ret = " -> torch.Tensor"

    if kind == 0:
        name, doc = f"MultiHeadAttention{n}", "Self-attention with a fused QKV projection."
        init = COMMON_INIT + [
            f"self.num_heads = {heads}",
            "self.head_dim = dim // self.num_heads",
            "self.qkv = nn.Linear(dim, 3 * dim, bias=False)",
            "self.proj = nn.Linear(dim, dim)",
            "self.attn_drop = nn.Dropout(dropout)",
        ]
        body = [
            "B, T, C = x.shape",
            "h = x",
            "qkv = self.qkv(h).reshape(B, T, 3, self.num_heads, self.head_dim)",
            "q, k, v = qkv.permute(2, 0, 3, 1, 4).unbind(0)",
            "attn = (q @ k.transpose(-2, -1)) * (self.head_dim ** -0.5)",
            "if mask is not None:",
            "    attn = attn.masked_fill(mask[:, None, None, :] == 0, float(\"-inf\"))",
            "attn = attn.softmax(dim=-1)",
            "attn = self.attn_drop(attn)",
            "h = (attn @ v).transpose(1, 2).reshape(B, T, C)",
            "h = self.proj(h)",
            "return h",
        ]
        fwd_sig = "self, x: torch.Tensor, mask: torch.Tensor | None = None"
        at = len(body) - 2
    elif kind == 1:
        name, doc = f"GatedMLP{n}", "SwiGLU feed-forward block."
        init = COMMON_INIT + [
            f"self.w1 = nn.Linear(dim, {hidden}, bias=False)",
            f"self.w2 = nn.Linear({hidden}, dim, bias=False)",
            f"self.w3 = nn.Linear(dim, {hidden}, bias=False)",
            "self.drop = nn.Dropout(dropout)",
        ]
        body = [
            "h = F.silu(self.w1(x)) * self.w3(x)",
            "h = self.drop(h)",
            "h = self.w2(h)",
            "return h",
        ]
        fwd_sig = "self, x: torch.Tensor"
        at = 3
    elif kind == 2:
        name, doc = f"RMSNorm{n}", "Root-mean-square layer normalisation."
        init = COMMON_INIT + ["self.weight = nn.Parameter(torch.ones(dim))"]
        body = [
            "h = x.float()",
            "variance = h.pow(2).mean(dim=-1, keepdim=True)",
            "h = h * torch.rsqrt(variance + self.eps)",
            "h = h.to(x.dtype)",
            "return self.weight * h",
        ]
        fwd_sig = "self, x: torch.Tensor"
        at = 4
    elif kind == 3:
        name, doc = f"TokenEmbedding{n}", "Token and learned position embeddings."
        vocab = rng.choice([32000, 50257, 65536])
        init = COMMON_INIT + [
            f"self.tokens = nn.Embedding({vocab}, dim)",
            "self.positions = nn.Embedding(max_len, dim)",
            "self.norm = nn.LayerNorm(dim, eps=eps)",
        ]
        body = [
            "positions = torch.arange(x.size(-1), device=x.device)",
            "h = self.tokens(x) + self.positions(positions)[None]",
            "h = self.norm(h)",
            "return h",
        ]
        fwd_sig = "self, x: torch.Tensor"
        at = 3
    elif kind == 4:
        name, doc = f"TransformerBlock{n}", "Pre-norm transformer layer."
        init = COMMON_INIT + [
            "self.norm1 = nn.LayerNorm(dim, eps=eps)",
            "self.norm2 = nn.LayerNorm(dim, eps=eps)",
            f"self.attn = nn.MultiheadAttention(dim, {heads}, dropout=dropout, batch_first=True)",
            "self.mlp = nn.Sequential(",
            f"    nn.Linear(dim, {hidden}),",
            "    nn.GELU(),",
            f"    nn.Linear({hidden}, dim),",
            ")",
        ]
        body = [
            "h = self.norm1(x)",
            "attn_out, _ = self.attn(h, h, h, attn_mask=mask, need_weights=False)",
            "h = x + attn_out",
            "h = h + self.mlp(self.norm2(h))",
            "return h",
        ]
        fwd_sig = "self, x: torch.Tensor, mask: torch.Tensor | None = None"
        at = 4
    elif kind == 5:
        name, doc = f"ConvStem{n}", "Patchifying convolution stem."
        patch = rng.choice([4, 8, 16])
        init = COMMON_INIT + [
            f"self.conv = nn.Conv2d(3, dim, kernel_size={patch}, stride={patch})",
            "self.bn = nn.BatchNorm2d(dim)",
            "self.norm = nn.LayerNorm(dim, eps=eps)",
        ]
        body = [
            "h = self.conv(x)",
            "h = F.relu(self.bn(h))",
            "h = h.flatten(2).transpose(1, 2)",
            "h = self.norm(h)",
            "return h",
        ]
        fwd_sig = "self, x: torch.Tensor"
        at = 4
    elif kind == 6:
        name, doc = f"RotaryAttention{n}", "Attention with rotary position embeddings."
        init = COMMON_INIT + [
            f"self.num_heads = {heads}",
            "self.head_dim = dim // self.num_heads",
            "self.q_proj = nn.Linear(dim, dim, bias=False)",
            "self.k_proj = nn.Linear(dim, dim, bias=False)",
            "self.v_proj = nn.Linear(dim, dim, bias=False)",
            "self.o_proj = nn.Linear(dim, dim, bias=False)",
            "inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))",
            "self.register_buffer(\"inv_freq\", inv_freq, persistent=False)",
        ]
        body = [
            "B, T, _ = x.shape",
            "h = x",
            "q = self.q_proj(h).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)",
            "k = self.k_proj(h).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)",
            "v = self.v_proj(h).view(B, T, self.num_heads, self.head_dim).transpose(1, 2)",
            "t = torch.arange(T, device=x.device, dtype=self.inv_freq.dtype)",
            "freqs = torch.outer(t, self.inv_freq)",
            "cos, sin = freqs.cos()[None, None], freqs.sin()[None, None]",
            "q1, q2 = q[..., ::2], q[..., 1::2]",
            "k1, k2 = k[..., ::2], k[..., 1::2]",
            "q = torch.cat([q1 * cos - q2 * sin, q1 * sin + q2 * cos], dim=-1)",
            "k = torch.cat([k1 * cos - k2 * sin, k1 * sin + k2 * cos], dim=-1)",
            "h = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=mask is None)",
            "h = h.transpose(1, 2).reshape(B, T, -1)",
            "return self.o_proj(h)",
        ]
        fwd_sig = "self, x: torch.Tensor, mask: torch.Tensor | None = None"
        at = len(body) - 1
    elif kind == 7:
        name, doc = f"TopKRouter{n}", "Mixture-of-experts router with top-k gating."
        experts = rng.choice([4, 8, 16])
        init = COMMON_INIT + [
            f"self.num_experts = {experts}",
            "self.top_k = 2",
            "self.gate = nn.Linear(dim, self.num_experts, bias=False)",
            "self.experts = nn.ModuleList(",
            f"    [nn.Linear(dim, dim) for _ in range({experts})]",
            ")",
        ]
        body = [
            "h = x.reshape(-1, x.size(-1))",
            "logits = self.gate(h)",
            "weights, chosen = torch.topk(logits.softmax(dim=-1), self.top_k, dim=-1)",
            "weights = weights / weights.sum(dim=-1, keepdim=True)",
            "out = torch.zeros_like(h)",
            "for slot in range(self.top_k):",
            "    for e, expert in enumerate(self.experts):",
            "        routed = (chosen[:, slot] == e).unsqueeze(-1).to(h.dtype)",
            "        out = out + routed * weights[:, slot : slot + 1] * expert(h)",
            "h = out.reshape(x.shape)",
            "return h",
        ]
        fwd_sig = "self, x: torch.Tensor"
        at = len(body) - 1
    else:
        name, doc = f"ClassifierHead{n}", "Pooling and classification head."
        classes = rng.choice([10, 100, 1000])
        init = COMMON_INIT + [
            "self.norm = nn.LayerNorm(dim, eps=eps)",
            f"self.fc = nn.Linear(dim, {classes})",
            "self.drop = nn.Dropout(dropout)",
        ]
        body = [
            "h = self.norm(x)",
            "if x.dim() == 3:",
            "    h = h.mean(dim=1)",
            "h = self.drop(h)",
            "logits = self.fc(h)",
            "return F.log_softmax(logits, dim=-1)",
        ]
        fwd_sig = "self, x: torch.Tensor"
        at = 4

    body = pad_forward(w, body, target, at)
    w.classes.append(name)
    lines = [f"class {name}(nn.Module):", f'    """{doc}"""', ""]
    lines += indent(method("__init__", sig_init, ["super().__init__()"] + init, " -> None"), 1)
    lines.append("")
    lines += indent(method("forward", fwd_sig, body, ret), 1)
    lines += ["", ""]
    return lines


def make_compiled_function(w: Writer, n: int) -> list[str]:
    rng = w.rng
    choice = rng.randrange(3)
    if choice == 0:
        body = ["y = x + bias",
                "return 0.5 * y * (1.0 + torch.tanh(0.7978845608 * (y + 0.044715 * y * y * y)))"]
        lines = ["@torch.compile", f"def fused_gelu_bias{n}(x: torch.Tensor, bias: torch.Tensor)"
                 " -> torch.Tensor:"]
    elif choice == 1:
        body = ["logits = logits / temperature",
                "probs = torch.softmax(logits, dim=-1)",
                "sorted_probs, order = torch.sort(probs, descending=True)",
                "cumulative = sorted_probs.cumsum(dim=-1)",
                "sorted_probs = sorted_probs.masked_fill(cumulative - sorted_probs > top_p, 0.0)",
                "return torch.zeros_like(probs).scatter(-1, order, sorted_probs)"]
        lines = ['@torch.compile(mode="reduce-overhead")',
                 f"def nucleus_filter{n}(logits: torch.Tensor, temperature: float = 1.0, "
                 "top_p: float = 0.9) -> torch.Tensor:"]
    else:
        body = ["q = q * (q.size(-1) ** -0.5)",
                "scores = q @ k.transpose(-2, -1)",
                "causal = torch.ones(scores.shape[-2:], dtype=torch.bool, device=q.device).tril()",
                "scores = scores.masked_fill(~causal, float(\"-inf\"))",
                "return scores.softmax(dim=-1) @ v"]
        lines = ["@torch.compile(fullgraph=False, dynamic=True)",
                 f"def causal_attention{n}(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor)"
                 " -> torch.Tensor:"]
    if w.want_break():
        body = ['print("compiled call")'] + body
        w.took_break()
    return lines + indent(body, 1) + ["", ""]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lines", type=int, help="about how many lines to write")
    parser.add_argument("out", help="output path ('-' for stdout)")
    parser.add_argument("--seed", type=int, default=20240611)
    args = parser.parse_args(argv)
    if args.lines < 50:
        parser.error("N must be at least 50")

    w = Writer(random.Random(args.seed * 1000003 + args.lines))
    w.emit(HEADER.splitlines())
    n = 0
    footer_len = 12
    while len(w.lines) < args.lines - footer_len:
        n += 1
        if n % 12 == 0:
            w.emit(make_compiled_function(w, n))
        else:
            w.emit(make_class(w, n))
    w.emit([
        "def build_model(depth: int = 4) -> nn.Module:",
        f"    layers = [{w.classes[0]}(), {w.classes[-1]}()] if depth > 0 else []",
        "    return nn.Sequential(*layers)",
        "",
        "",
        'if __name__ == "__main__":',
        "    model = build_model()",
        "    sample = torch.randn(2, 16, 512)",
        "    with torch.no_grad():",
        "        print(model(sample).shape)",
    ])
    text = "\n".join(w.lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    print(f"{args.out}: {len(w.lines)} lines, {n} definitions, {w.breaks} graph-break causes",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
