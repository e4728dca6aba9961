# mend-applicability: safe
# A buffer that __init__ made with nn.Buffer, converted and stored back in forward (CTRL's
# positional encoding): when the conversion is a no-op it returns the buffer itself, and
# re-registering it breaks the graph. Stored only when the conversion made a new tensor, which
# keeps the module's state the same in every case.
import torch
from torch import nn


class Embedding(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos_encoding = nn.Buffer(torch.randn(16, 8))
        self.proj = nn.Linear(8, 8)

    def forward(self, x, position_ids):
        x = self.proj(x)
        # the buffer does not follow the model's dtype, so it is moved by hand
        pos_encoding = self.pos_encoding.to(device=x.device, dtype=x.dtype)
        if pos_encoding is not self.pos_encoding:
            self.pos_encoding = pos_encoding
        return x + self.pos_encoding[position_ids, :]


def example():
    return Embedding(), (torch.randn(2, 5, 8), torch.arange(5).expand(2, 5))
