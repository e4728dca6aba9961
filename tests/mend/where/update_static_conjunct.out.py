# mend-applicability: safe
import torch
from torch import nn


class Layer(nn.Module):
    """GraphMend's Florence-2 case: an overflow guard whose static conjunct stays a Python if."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, hidden_states: torch.Tensor):
        hidden_states = self.fc(hidden_states) * 1000.0
        if hidden_states.dim() == 2:
            clamp_value = torch.finfo(hidden_states.dtype).max - 1000
            hidden_states = torch.where(torch.logical_or(torch.isinf(hidden_states).any(), torch.isnan(hidden_states).any()), torch.clamp(hidden_states, min=-clamp_value, max=clamp_value), hidden_states)
        return hidden_states


def example():
    return Layer(), (torch.randn(3, 4),)
