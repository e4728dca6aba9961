# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# Rows a mask selects, normalised and written back (Higgs Audio's decoder layer, audio tokens and
# text tokens with separate norms): `h.masked_scatter(m.unsqueeze(-1), norm(h[m]))` reads h[m],
# whose length depends on the data. Normalising every row and selecting with torch.where gives
# the same rows because the norm works row by row; for a function whose rows interact it would
# not, so the mend is unsafe.
import torch
from torch import nn


class MixedNormLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.text_norm = nn.LayerNorm(8)
        self.audio_norm = nn.LayerNorm(8)

    def forward(self, hidden_states: torch.Tensor, audio_token_mask: torch.BoolTensor):
        hidden_states = torch.where(audio_token_mask.unsqueeze(-1), self.audio_norm(hidden_states).to(hidden_states.device), hidden_states)
        hidden_states = torch.where(~audio_token_mask.unsqueeze(-1), self.text_norm(hidden_states), hidden_states)
        return hidden_states * 2


def example():
    mask = torch.tensor([[True, False, True, True, False], [False, False, True, True, True]])
    return MixedNormLayer().eval(), (torch.randn(2, 5, 8), mask)
