"""A decorator factory (`@capture(...)` or `@capture`, transformers' capture_outputs) wraps
forward in a wrapper that calls it inside try/finally. When forward breaks, dynamo cannot
resume inside the try block and runs the wrapper eagerly; on Python 3.11 the wrapper's dict
comprehension that reads the module is then compiled apart and cannot start (GB4347). The
finding is conditional: the wrapper does not break around a forward that compiles whole."""
from functools import wraps

import torch
from torch import nn

REGISTRY = {}


def capture(func=None, *, keep_last=True):
    def wrapped_fn(func):
        @wraps(func)
        def wrapper(self, *args, **kwargs):
            flags = REGISTRY.get(type(self), ["hidden"])
            recordable = {f"output_{k}": getattr(self, f"output_{k}", False) for k in flags}  # expect: GM606
            try:
                outputs = func(self, *args, **kwargs)
            finally:
                pass
            return outputs if keep_last else (outputs, recordable)

        return wrapper

    if func is not None:
        return wrapped_fn(func)
    return wrapped_fn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)
        self.output_hidden = False

    @capture
    def forward(self, x):
        h = self.proj(x)
        if h.sum() > 0:  # expect: GM101
            h = h * 0.5
        return h


def example():
    return Net().eval(), (torch.randn(2, 4),)
