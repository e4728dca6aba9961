"""A greedy decoding loop that stops with `if <tensor>.any(-1).all(): break`: a data-dependent
branch inside the loop (GM101), so dynamo skips the frame.
Reproduces transformers slanet/modeling_slanet.py:173-182."""
import torch
from torch import nn
import torch.nn.functional as F


class Head(nn.Module):
    max_text_length = 3
    out_channels = 5

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(8 + self.out_channels, 8)
        self.structure_generator = nn.Linear(8, self.out_channels)

    def forward(self, hidden_states):
        features = torch.zeros((hidden_states.shape[0], 8), dtype=torch.float32)
        predicted_chars = torch.zeros(size=[hidden_states.shape[0]], dtype=torch.long)
        structure_preds_list = []
        structure_ids_list = []
        for _ in range(self.max_text_length + 1):
            embedding_feature = F.one_hot(predicted_chars, self.out_channels).float()
            features = self.cell(torch.cat([features + hidden_states, embedding_feature], dim=-1))
            structure_step = self.structure_generator(features)
            predicted_chars = structure_step.argmax(dim=1)

            structure_preds_list.append(structure_step)
            structure_ids_list.append(predicted_chars)
            if torch.stack(structure_ids_list, dim=1).eq(self.out_channels - 1).any(-1).all():  # expect: GM101
                break
        return F.softmax(torch.stack(structure_preds_list, dim=1), dim=-1, dtype=torch.float32)


def example():
    return Head().eval(), (torch.randn(2, 8),)
