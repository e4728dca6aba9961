"""A custom autograd.Function applied with the same mask twice (transformers' YOSO:
`YosoCumulation.apply(attention_mask, attention_mask, query, key, value, config)`). With
gradients enabled dynamo does not trace a Function whose inputs repeat a tensor (GB6297): the
graph breaks at the call and resumes after it. The oracle runs with gradients enabled (eval
mode does not turn them off); under torch.no_grad() the Function is traced. Passing a clone
as the second input is traced too."""
import torch
from torch import nn


class Cumulation(torch.autograd.Function):
    @staticmethod
    def forward(ctx, query_mask, key_mask, query):
        ctx.save_for_backward(query)
        return query * query_mask * key_mask

    @staticmethod
    def backward(ctx, grad):
        return None, None, grad


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x, mask):
        q = self.proj(x)
        once = Cumulation.apply(mask, mask.clone(), q)
        twice = Cumulation.apply(mask, mask, q)  # expect: GM707
        return once + twice


def example():
    return Net().eval(), (torch.randn(2, 4), torch.ones(2, 4))
