# mend-applicability: safe
# mend-rules: GM606
# mend-breaks-after: 1
# transformers' capture_outputs wrapper (utils/output_capturing.py): the dict comprehension reads
# the module and iterates the flags a registry holds. forward breaks inside the wrapper's try
# block, so dynamo runs the wrapper eagerly and, on Python 3.11, compiles the comprehension as a
# frame of its own, which cannot take the dict's key iterator as an input (GB4347). As the loop
# Python 3.12 runs, it stays in the wrapper's frame and nothing breaks there; the key (an
# f-string) is computed before the value, as the comprehension did. The second comprehension
# binds its own `k` (no conflict) and does not read the module (no break). forward's own break
# stays.
from functools import wraps

import torch
from torch import nn

REGISTRY = {}


def capture_outputs(func):
    @wraps(func)
    def wrapper(self, *args, **kwargs):
        flags = REGISTRY.get(type(self), {"hidden_states": True, "attentions": False})
        recordable = {}
        for k in flags:
            gm_key = f"output_{k}"
            recordable[gm_key] = kwargs.get(f"output_{k}", getattr(self.config, f"output_{k}", False))
        collected = {k.replace("output_", ""): [] for k, v in recordable.items() if v}
        try:
            outputs = func(self, *args, **kwargs)
        finally:
            pass
        return outputs * (1 + len(collected))

    return wrapper


class Config:
    output_hidden_states = True
    output_attentions = False


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = Config()
        self.proj = nn.Linear(4, 4)

    @capture_outputs
    def forward(self, x):
        h = self.proj(x)
        torch._dynamo.graph_break()
        return torch.tanh(h)


def example():
    return Net(), (torch.randn(2, 4),)
