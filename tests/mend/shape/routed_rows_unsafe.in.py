# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# Token routing by a boolean mask (Higgs Audio's decoder layer): the text rows and the audio rows
# of the hidden states go through their own norm and MLP and are added back under the mask.
# Each `h[m]` has a length that depends on the data. Running both paths on every row and
# selecting the rows with torch.where gives the same rows, because norms and MLPs work row by
# row; for functions whose rows interact it would not, so the mend is unsafe.
import torch
from torch import nn


class MixedMlpLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.text_norm = nn.LayerNorm(8)
        self.audio_norm = nn.LayerNorm(8)
        self.text_mlp = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))
        self.audio_mlp = nn.Sequential(nn.Linear(8, 16), nn.SiLU(), nn.Linear(16, 8))

    def forward(self, hidden_states: torch.Tensor, audio_token_mask: torch.BoolTensor | None = None):
        hidden_states = hidden_states * 2
        if audio_token_mask is None:
            # the other branch passes the tensor on: it never runs with the stores
            audio_hidden_states = self.audio_mlp(self.audio_norm(hidden_states))
            hidden_states = hidden_states + audio_hidden_states
        else:
            text_hidden_states = self.text_norm(hidden_states[~audio_token_mask])
            audio_hidden_states = self.audio_norm(hidden_states[audio_token_mask])

            text_hidden_states = self.text_mlp(text_hidden_states)
            hidden_states[~audio_token_mask] += text_hidden_states.to(hidden_states.device)

            audio_hidden_states = self.audio_mlp(audio_hidden_states)
            hidden_states[audio_token_mask] += audio_hidden_states.to(hidden_states.device)
        return hidden_states


def example():
    mask = torch.tensor([[True, False, True, True, False], [False, False, True, True, True]])
    return MixedMlpLayer().eval(), (torch.randn(2, 5, 8), mask)
