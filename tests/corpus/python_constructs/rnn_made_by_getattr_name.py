"""A recurrent layer made by `getattr(nn, rnn_type)(...)` with the class's name a constructor
argument (torchaudio's SquimObjective: SingleRNN, given "LSTM" by DPRNN). When the name is
"LSTM", "GRU" or "RNN" the call breaks (GB0014) and dynamo skips the whole forward; graphmend
cannot see the value, so it reports the call with that condition."""
import torch
import torch.nn as nn


class SingleRNN(nn.Module):
    def __init__(self, rnn_type: str, input_size: int, hidden_size: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.rnn_type = rnn_type
        self.rnn: nn.modules.Module = getattr(nn, rnn_type)(
            input_size, hidden_size, 1, dropout=dropout, batch_first=True, bidirectional=True
        )
        self.proj = nn.Linear(hidden_size * 2, input_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.rnn(x)  # expect: GM604
        out = self.proj(out)
        return out


def example():
    return SingleRNN("LSTM", 8, 8).eval(), (torch.randn(2, 5, 8),)
