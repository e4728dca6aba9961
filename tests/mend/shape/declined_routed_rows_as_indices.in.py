# mend-declined: the masked rows are used as indices
# mend-rules: GM301
# The kept labels pick each row's log-probability (Transformer-XL's adaptive softmax): the
# rows the mask leaves out hold -100, which no gather may take, so computing every row would
# raise instead of skipping them.
import torch
from torch import nn


class LabelLogProbs(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 5)

    def forward(self, hidden: torch.Tensor, labels: torch.Tensor):
        logit = self.proj(hidden)
        mask = labels != -100
        out = torch.zeros_like(labels, dtype=hidden.dtype)
        out[mask] = -nn.functional.log_softmax(logit, dim=-1)[mask].gather(1, labels[mask].unsqueeze(1)).squeeze(1)
        return out


def example():
    return LabelLogProbs().eval(), (torch.randn(6, 8), torch.tensor([1, -100, 3, 0, -100, 4]))
