"""`with torch.backends.cuda.sdp_kernel(...)`, the deprecated spelling of
torch.nn.attention.sdpa_kernel: dynamo cannot enter that generator context manager, cannot resume
after the break, and runs the whole function eagerly (so the later `.item()` is not reported on
its own). Calling it without entering it breaks too (GB0208), and dynamo resumes after it; the
replacement, `sdpa_kernel([...])`, is traced."""
import warnings

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.attention import SDPBackend, sdpa_kernel

warnings.filterwarnings("ignore", category=FutureWarning)


class Attention(nn.Module):
    def forward(self, q):
        with torch.backends.cuda.sdp_kernel(enable_flash=True, enable_math=True,  # expect: GM512
                                            enable_mem_efficient=True):
            out = F.scaled_dot_product_attention(q, q, q)
        scale = out.abs().max().item()
        return out / scale


class ModernAttention(nn.Module):
    def forward(self, q):
        config = torch.backends.cuda.sdp_kernel(enable_flash=False)  # expect: GM512
        with sdpa_kernel([SDPBackend.MATH]):
            out = F.scaled_dot_product_attention(q, q, q)
        return out * 2, config is not None


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.old = Attention()
        self.new = ModernAttention()

    def forward(self, q):
        out, _ = self.new(q)
        return self.old(q) + out


def example():
    return Model().eval(), (torch.randn(1, 2, 4, 8),)
