"""An object handed to a module's constructor and kept (`self.processor = processor`) whose class
the parameter's annotation names (a forward-reference string, as diffusers' attention modules
write `processor: "MochiAttnProcessor2_0"`): calling it (`self.processor(self, ...)`) runs that
class's `__call__` inside the graph, so a break there is a break of the compiled model. A kept
object the annotation does not name (`helper: object`) is not followed."""
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim: int, processor: "MaskedProcessor", helper: object = None):
        super().__init__()
        self.to_q = nn.Linear(dim, dim)
        self.processor = processor
        self.helper = helper

    def forward(self, hidden_states, attention_mask):
        return self.processor(self, hidden_states, attention_mask=attention_mask)


class MaskedProcessor:
    def __call__(self, attn: Attention, hidden_states: torch.Tensor, attention_mask: torch.Tensor):
        query = attn.to_q(hidden_states)
        mask = attention_mask[0][None, :]
        valid = torch.nonzero(mask.flatten(), as_tuple=False).flatten()  # expect: GM301
        return query[:, valid].sum(-1)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention(8, processor=MaskedProcessor())

    def forward(self, x, mask):
        return self.attn(x, mask) + 1


def example():
    return Block().eval(), (torch.randn(4, 8), torch.tensor([[1, 0, 1, 1, 0, 1, 0, 1]]))
