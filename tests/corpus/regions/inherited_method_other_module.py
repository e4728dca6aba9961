"""`self.extended_mask(...)` in forward, defined on a mixin that the base class (imported from
another module) derives from: the inherited method is compiled code of that module, and its
warnings.warn is reported there. Methods of the base that compiled code never calls
(describe_mask, init_weights) are not regions."""
import torch

from rg_pretrained_lib import PreTrainedModel


class Encoder(PreTrainedModel):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(8, 8)

    def forward(self, x, mask):
        ext = self.extended_mask(mask, x.device)
        return self.proj(x) + ext.sum(-1)


def example():
    return Encoder().eval(), (torch.randn(2, 8), torch.ones(2, 8))
