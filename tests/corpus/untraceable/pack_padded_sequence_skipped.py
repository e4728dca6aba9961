"""torch.nn.utils.rnn.pack_padded_sequence and pad_packed_sequence are both SkipFunctionVariable
in dynamo's trace_rules (torch 2.13): each call breaks the graph (GB0007) and dynamo resumes
after it, with no recurrent module involved. Reached through `nn.utils.rnn.X` and through a
`from torch.nn.utils.rnn import X` name alike."""
import torch
from torch import nn
from torch.nn.utils.rnn import pad_packed_sequence


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x, lengths):
        x = self.proj(x)
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True)  # expect: GM501
        y, _ = pad_packed_sequence(packed, batch_first=True)  # expect: GM501
        return self.proj(y) * 2


def example():
    return Model().eval(), (torch.randn(2, 5, 4), torch.tensor([5, 3]))
