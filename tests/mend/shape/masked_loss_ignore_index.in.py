# mend-applicability: safe
# A loss over the targets a mask keeps, as language-model heads write it: selecting with
# `labels != -100` makes the shapes depend on the data; ignore_index=-100 on the flattened
# inputs computes the same mean without a data-dependent shape.
import torch
import torch.nn.functional as F
from torch import nn


class LMHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 11)

    def forward(self, hidden, labels):
        logits = self.proj(hidden)
        loss = F.cross_entropy(logits[labels != -100], labels[labels != -100], label_smoothing=0.1)
        return loss


def example():
    labels = torch.tensor([[3, -100, 7, 1, -100], [0, 2, -100, 10, 4]])
    return LMHead().eval(), (torch.randn(2, 5, 8), labels)
