"""NumPy functions torch._numpy does not implement (GB0294 "attempted to trace numpy function
unsupported by PyTorch"): `np.isin`, a `nan*` reduction, a random distribution and
`np.random.permutation` break whatever their arguments are, Python constants included;
`np.random.choice` reads its arguments' data (GB0033) even on a plain int. The functions it does
implement (`np.arange`, `np.clip`, `np.random.rand(2)` with a size, `np.random.shuffle`) trace,
and so does np.bool, a scalar type."""
import numpy as np
import torch


@torch.compile
def mask_known_tokens(ids, scores):
    known = np.isin(ids.numpy(), [1, 2, 3])  # expect: GM511
    level = np.nanmean(scores.numpy())  # expect: GM511
    order = np.random.permutation(4)  # expect: GM511
    keep = np.random.binomial(1, 0.5, size=4)  # expect: GM511
    pick = np.random.choice(4, 2)  # expect: GM202
    span = np.clip(np.arange(4), 0, 2)
    noise = np.random.rand(4)
    np.random.shuffle(span)
    flag = np.bool(True)
    out = torch.as_tensor(known).float() + torch.as_tensor(level)
    out = out + torch.as_tensor(order + keep + span + noise).float().sum()
    return out + torch.as_tensor(pick).sum() * flag


def example():
    return mask_known_tokens, (torch.tensor([1, 5, 2, 7]), torch.tensor([0.5, float("nan"), 1.0, 2.0]))
