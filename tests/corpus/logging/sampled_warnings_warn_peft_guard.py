"""`warnings.warn(...)` behind `if is_peft_available(): if isinstance(self.kernel, LoraLayer):`:
when the guard holds (peft installed and the kernel LoRA-wrapped) the call breaks (GM403).
Reproduces transformers wav2vec2_bert/modeling_wav2vec2_bert.py:1341-1351 (TDNNLayer.forward);
a local class stands in for peft's LoraLayer."""
import warnings

import torch
from torch import nn


class LoraLayer(nn.Linear):
    pass


def is_peft_available():
    return True


class TDNNLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.kernel = LoraLayer(4, 4)

    def forward(self, hidden_states: torch.Tensor) -> torch.Tensor:
        if is_peft_available():
            if isinstance(self.kernel, LoraLayer):
                warnings.warn(  # expect: GM403
                    "Detected LoRA on TDNNLayer. LoRA weights won't be applied due to optimization. "
                    "You should exclude TDNNLayer from LoRA's target modules.",
                )
        return self.kernel(hidden_states)


def example():
    return TDNNLayer().eval(), (torch.randn(2, 4),)
