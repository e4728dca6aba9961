"""A 0-d tensor that is an input of the graph passed as narrow's length traces (dynamo passes it
as a symbolic int); a length computed from it in the graph (`x.size(-1) - m`) is read with
Tensor.item() ("Data dependent operator", GB0033), as in Longformer's
_compute_attn_output_with_global_indices."""
import torch


@torch.compile
def step(x: torch.Tensor, m: torch.Tensor):
    head = x.narrow(-1, 0, m)
    tail = x.narrow(-1, m, x.size(-1) - m)  # expect: GM202
    return head.sum() + tail.sum()


def example():
    return step, (torch.randn(4, 8), torch.tensor(3))
