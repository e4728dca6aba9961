"""A tensor method whose arguments break the graph (transformers' Higgs Audio:
`hidden_states.masked_scatter(mask, norm(hidden_states[mask]))`): Python looks the bound method
up before the arguments, so when the boolean-mask read breaks and dynamo resumes, the bound
method is a value of the resumed frame that dynamo cannot trace ("Attempted to call function
marked as skipped"), reported on the call's first line. A torch function taking the same
argument (`torch.add`) is no second break, nor is a method called after the break in a separate
statement."""
import torch
from torch import nn


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)

    def forward(self, hidden_states: torch.Tensor, mask: torch.BoolTensor):
        scattered = hidden_states.masked_scatter(  # expect: GM610
            mask.unsqueeze(-1),
            self.norm(hidden_states[mask]),  # expect: GM301
        )
        total = torch.add(scattered,
                          scattered[mask].sum())  # expect: GM301
        picked = total[~mask]  # expect: GM301
        return total.mul(picked.sum())


def example():
    mask = torch.tensor([[True, False, True, True, False], [False, False, True, True, True]])
    return Layer().eval(), (torch.randn(2, 5, 8), mask)
