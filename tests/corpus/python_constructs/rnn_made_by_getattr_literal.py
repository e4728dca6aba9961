"""A recurrent module made by `getattr(nn, "LSTM")(...)` (torchaudio's SquimObjective builds its
RNN from a name): with a literal name that is nn.LSTM, and dynamo breaks at its call (GB0014)
and skips the whole forward. Names resolve through getattr with a literal as through an
attribute."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.rnn = getattr(nn, "LSTM")(8, 8, 1, batch_first=True)
        self.proj = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(x)  # expect: GM604
        return self.proj(out)


def example():
    return Model().eval(), (torch.randn(2, 5, 8),)
